import Foundation
import MockCloudServer
import PluginFixtures
import Tandem

import enum CloudHTTPSCore.DialectKind

/// A Tandem config as a user writes it, in a temporary folder: backend `cloud` is the
/// `tandem.cloud` plugin pointed at one mock scenario, backend `local` is `tandem.fake`, both
/// loaded from the package's plugins.d/ (filled by `make plugins`). Opened through
/// `TandemConfig.load` + `TandemHost.open`, or run with the built `tandem` binary.
struct CloudHostFixture {
    let dialect: DialectKind
    let mock: MockServer
    /// The mock scenario with this fixture's own tag (request counter and log).
    let token: String
    let folder: String

    static let pluginsDirectory = PackagePaths.plugins

    /// The model each dialect asks for, and the version the mock reports for it.
    static func defaultModel(_ dialect: DialectKind) -> String { dialect == .gemini ? "gemini-2.5-flash" : "gpt-4o-mini" }
    static func servedVersion(_ dialect: DialectKind, model: String? = nil) -> String {
        let model = model ?? defaultModel(dialect)
        return dialect == .gemini ? model + "-001" : model + "-2026-01-01"
    }

    /// - Parameters:
    ///   - cloud: settings added to (or, with an empty value, removed from) the cloud's defaults.
    ///   - fallbackAlsoOn: the config's `fallback.also_on` (the widened policy), when not empty.
    ///   - mock: a private server; the shared one when nil (started off the cooperative pool on
    ///     first use, so tests waiting for it do not hold the pool's threads).
    init(
        _ dialect: DialectKind, scenario: String, mock: MockServer? = nil, mode: String = "prefer-cloud",
        model: String? = nil, cloud: [String: String] = [:], local: [String: String] = [:], fallbackAlsoOn: [String] = []
    ) async throws {
        self.dialect = dialect
        if let mock {
            self.mock = mock
        } else {
            self.mock = try await runOffThePool { MockServer.shared }
        }
        token = MockServer.token(scenario)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-cloudhost-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

        var cloudSettings = [
            "dialect": dialect.rawValue,
            "model": model ?? Self.defaultModel(dialect),
            "base_url": self.mock.baseURL(dialect, token: token),
            "ca_file": self.mock.caFile,
            "api_key_env": MockServer.keyVariable,
            "retry_base_delay_ms": "20",
        ]
        cloudSettings.merge(cloud) { _, new in new }
        let localSettings = ["kind": "local", "model_version": "local-v1", "reply": "The local side answers."]
            .merging(local) { _, new in new }
        var root: [String: Any] = [
            "plugins_dir": Self.pluginsDirectory,
            "mode": mode,
            "backends": [
                "cloud": ["plugin": "tandem.cloud", "settings": cloudSettings.filter { !$0.value.isEmpty }],
                "local": ["plugin": "tandem.fake", "settings": localSettings],
            ],
        ]
        if !fallbackAlsoOn.isEmpty { root["fallback"] = ["also_on": fallbackAlsoOn] }
        let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: configPath))
    }

    var configPath: String { folder + "/tandem.json" }
    /// The `XDG_CACHE_HOME` of the fixture's CLI runs (CLIRun).
    var cacheFolder: String { folder + "/cache" }

    func cleanUp() { try? FileManager.default.removeItem(atPath: folder) }

    /// The host the config describes, through the real loader.
    func host() throws -> TandemHost { TandemHost.open(try TandemConfig.load(from: configPath)) }

    /// A session on the config's hybrid model.
    func session(tools: [any Tool] = [], instructions: String? = nil) throws -> LanguageModelSession {
        LanguageModelSession(model: try host().hybridModel(), tools: tools, instructions: instructions)
    }

    /// The JSON bodies this fixture's scenario received, oldest first.
    func requests() async throws -> [[String: Any]] {
        let (mock, token) = (mock, token)
        return try await runOffThePool { try mock.requests(token).map(JSONObject.init) }.map(\.members)
    }
}

/// A decoded JSON object handed across threads (JSONSerialization's values are immutable).
private struct JSONObject: @unchecked Sendable {
    let members: [String: Any]
    init(_ members: [String: Any]) { self.members = members }
}
