import Foundation
import PluginFixtures
import QuoteLibrary

/// The built `tandem` binary in a temporary folder of its own: a config whose backends are the
/// `tandem.fake` plugin with scripted replies (draft side `local`, judge side `judge`), and the
/// library `lib.sqlite` next to it.
struct QuoteCLI {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String

        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
                throw Failure("stdout is not a JSON object: \(stdout)")
            }
            return object
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tandem").path
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    /// The package's `plugins.d/` (filled by `make plugins`, which `make test` runs first).
    static let pluginsDirectory = packageRoot + "/plugins.d"

    static let goodDraft = "She folds the last warm towel and hums while the kettle starts to sing."
    static let goodScores = #"{"quality": 8, "originality": 7, "warmth": 8, "overall": 7}"#

    let folder: String
    var configPath: String { folder + "/tandem.json" }
    var libraryPath: String { folder + "/lib.sqlite" }

    /// `draft` and `judge` are extra fake settings for each side (`draftPlugin` serves the draft);
    /// `secondary`, when given, is a second draft backend (`cloud`, routed as the secondary of
    /// `local`); `escalateOn` is `quote.escalate_on`; `pluginsDirectory` nil gives an empty plugins folder.
    /// `embedder`, when given, is a backend (`{"plugin": …, "settings": {…}}` as JSON) named
    /// `embed` and configured as `quote.embedder`.
    init(draft: [String: String] = ["guided_reply": Self.guided(Self.goodDraft)],
         judge: [String: String] = ["guided_reply": Self.goodScores],
         draftPlugin: String = "tandem.fake",
         secondary: [String: String]? = nil, escalateOn: [String]? = nil,
         embedder: String? = nil,
         pluginsDirectory: String? = Self.pluginsDirectory) throws {
        var template = Array("/tmp/tandem-quote-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure("mkdtemp failed") }
        folder = String(cString: made)
        var plugins = pluginsDirectory ?? folder + "/plugins.d"
        if pluginsDirectory == nil {
            plugins = folder + "/plugins.d"
            try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o755])
        }
        func settings(_ kind: String, _ extra: [String: String]) throws -> String {
            let all = extra.merging(["kind": kind]) { a, _ in a }
            return String(decoding: try JSONSerialization.data(withJSONObject: all, options: .sortedKeys), as: UTF8.self)
        }
        let routing = secondary == nil ? #""mode": "local-only""# : #""primary": "local", "secondary": "cloud""#
        let cloud = try secondary.map { #", "cloud": {"plugin": "tandem.fake", "settings": \#(try settings("cloud", $0))}"# } ?? ""
        let escalation = try escalateOn.map {
            #", "escalate_on": \#(String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self))"#
        } ?? ""
        let config = """
            {"plugins_dir": "\(plugins)", \(routing), "store": "lib.sqlite",
             "backends": {"local": {"plugin": "\(draftPlugin)", "settings": \(try settings("local", draft))},
                          "judge": {"plugin": "tandem.fake", "settings": \(try settings("test", judge))}\(cloud)\(embedder.map { ", \"embed\": \($0)" } ?? "")},
             "quote": {"judge": "judge"\(escalation)\(embedder == nil ? "" : ", \"embedder\": \"embed\"")}}
            """
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        // The default `quote.word_frequencies` (models/word-frequencies next to the config): the
        // package's tables, fetched by `make word-frequencies`.
        try FileManager.default.createDirectory(atPath: folder + "/models", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder + "/models/word-frequencies",
                                                   withDestinationPath: Self.packageRoot + "/models/word-frequencies")
    }

    /// The fake plugin's hashed-trigram embeddings through the real loader.
    static let fakeEmbedder = #"{"plugin": "tandem.fake", "settings": {"kind": "local", "embedding_dims": "256"}}"#

    static func guided(_ sentence: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: ["quote": sentence]), as: UTF8.self)
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: folder) }

    /// Runs `tandem --config <ours> arguments` on a thread of its own: waiting for the child must
    /// not hold one of the few cooperative threads that every other test's tasks need.
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try runBlocking(arguments, environment: environment) }) }.start()
        }
    }

    private func runBlocking(_ arguments: [String], environment: [String: String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["--config", configPath] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        // stderr goes to a file, so only one pipe is read and a chatty child cannot block.
        let errPath = folder + "/stderr-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: errPath, contents: nil) else { throw Failure("cannot create \(errPath)") }
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try ProcessLaunch.run(process)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try err.close()
        let stderr = FileManager.default.contents(atPath: errPath) ?? Data()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                       stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// The library as the tests inspect it (read-only).
    func library() throws -> QuoteStore { try QuoteStore.openReadOnly(path: libraryPath) }
}
