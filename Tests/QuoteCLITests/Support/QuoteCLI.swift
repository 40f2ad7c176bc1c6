import Foundation
import PluginFixtures
import QuoteLibrary

/// The built `tandem` binary in a temporary folder of its own: a config whose backends are the
/// `tandem.fake` plugin with scripted replies (draft side `local`, judge side `judge`), and the
/// library `lib.sqlite` next to it.
struct QuoteCLI {
    typealias Outcome = TestProcess.Outcome

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The package's `plugins.d/` (filled by `make plugins`, which `make test` runs first).
    static let pluginsDirectory = PackagePaths.plugins

    static let goodDraft = "She folds the last warm towel and hums while the kettle starts to sing."
    static let goodScores = #"{"quality": 8, "originality": 7, "warmth": 8, "overall": 7}"#

    let folder: String
    var configPath: String { folder + "/tandem.json" }
    var libraryPath: String { folder + "/lib.sqlite" }

    /// `draft` and `judge` are extra fake settings for each side (`draftPlugin` serves the draft);
    /// `secondary`, when given, is a second draft backend (`cloud`, routed as the secondary of
    /// `local`); `escalateOn` is `quote.escalate_on`; `pluginsDirectory` nil gives an empty plugins folder.
    /// `embedder`, when given, is a backend named `embed` and configured as `quote.embedder`.
    init(draft: [String: String] = ["guided_reply": Self.guided(Self.goodDraft)],
         judge: [String: String] = ["guided_reply": Self.goodScores],
         draftPlugin: String = "tandem.fake",
         secondary: [String: String]? = nil, escalateOn: [String]? = nil,
         embedder: TestConfig.Backend? = nil,
         pluginsDirectory: String? = Self.pluginsDirectory) throws {
        var template = Array("/tmp/tandem-quote-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure("mkdtemp failed") }
        folder = String(cString: made)
        let plugins = pluginsDirectory ?? folder + "/plugins.d"
        if pluginsDirectory == nil {
            try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o755])
        }
        var backends: [String: TestConfig.Backend] = [
            "local": .init(plugin: draftPlugin, settings: ["kind": "local"].merging(draft) { _, extra in extra }.mapValues(TestConfig.Value.string)),
            "judge": .fake(["kind": "test"].merging(judge) { _, extra in extra }),
        ]
        if let secondary { backends["cloud"] = .fake(["kind": "cloud"].merging(secondary) { _, extra in extra }) }
        if let embedder { backends["embed"] = embedder }
        try TestConfig(pluginsDirectory: plugins, routing: secondary == nil ? .mode("local-only") : .primary("local", secondary: "cloud"),
                       backends: backends, store: "lib.sqlite",
                       quote: .init(judge: "judge", escalateOn: escalateOn, embedder: embedder == nil ? nil : "embed"))
            .write(to: configPath)
        // The default `quote.word_frequencies` (models/word-frequencies next to the config): the
        // package's tables, fetched by `make word-frequencies`.
        try FileManager.default.createDirectory(atPath: folder + "/models", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder + "/models/word-frequencies",
                                                   withDestinationPath: PackagePaths.models + "/word-frequencies")
    }

    /// The fake plugin's hashed-trigram embeddings through the real loader.
    static let fakeEmbedder = TestConfig.Backend.fake(["kind": "local", "embedding_dims": "256"])

    static func guided(_ sentence: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: ["quote": sentence]), as: UTF8.self)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: folder) }

    /// Runs `tandem --config <ours> arguments` to its end, off the cooperative pool.
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        try await TestProcess.run(PackagePaths.binary("tandem"), ["--config", configPath] + arguments, in: folder, environment: environment)
    }

    /// The library as the tests inspect it (read-only).
    func library() throws -> QuoteStore { try QuoteStore.openReadOnly(path: libraryPath) }
}
