import CloudHTTPSCore
import Foundation
import PluginFixtures
import TandemBridge
import TandemPluginKit

/// The Python mock server (mock_server.py beside this file) on a random port of 127.0.0.1 with
/// a CA made for this run. `shared` is started once per test process; `start()` gives a private
/// one a test may `stop()`. A server exits when this process closes its stdin (or ends).
public final class MockServer: @unchecked Sendable {
    /// The recognisable key every test uses; the secrecy tests search all output for it.
    public static let apiKey = "tandem-SECRET-key-5f9a27c3e1"
    public static let keyVariable = "TANDEM_TEST_CLOUD_KEY"
    /// Variables holding keys the mock rejects. All are set once, before any test reads the
    /// environment (setenv while other threads call getenv is not safe).
    public static let wrongKeyVariables = ["TANDEM_TEST_WRONG_KEY": "not-the-right-key", "TANDEM_TEST_WRONG_OPENAI_KEY": "sk-wrong"]

    public let port: Int
    public let caFile: String
    /// Reads its stdin until it closes (`stop`, or this process's end).
    private let process: TestProcess

    public static let shared: MockServer = {
        // `make test` exports them before the test process starts, so nothing is set here while
        // other tests' threads read the environment; a direct `swift test` sets them now.
        for (name, value) in [keyVariable: apiKey].merging(wrongKeyVariables, uniquingKeysWith: { a, _ in a })
        where getenv(name).map({ String(cString: $0) }) != value {
            setenv(name, value, 1)
        }
        do { return try MockServer() } catch { fatalError("mock server failed to start: \(error)") }
    }()

    public static var scriptPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("mock_server.py").path
    }

    /// A server of its own (its own port and CA), for a test that stops it.
    public static func start() throws -> MockServer {
        _ = shared  // the key variables are set once, by the first server
        return try MockServer()
    }

    private init() throws {
        let workdir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-mock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
        process = try TestProcess("/usr/bin/env", ["python3", Self.scriptPath, "--workdir", workdir.path],
                                  environment: ["MOCK_API_KEY": Self.apiKey], input: .interactive)
        try process.waitFor(stdout: "\n")
        guard let line = process.stdout.split(separator: "\n").first.map(String.init),
              let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let port = json["port"] as? Int, let ca = json["ca"] as? String
        else { throw MockError.noBanner }
        self.port = port
        caFile = ca
    }

    public enum MockError: Error { case noBanner }

    /// Ends the server and waits until it is gone: its port then refuses connections.
    public func stop() {
        _ = process.wait()
    }

    /// A scenario token unique to one test, so request counters and logs are its own.
    public static func token(_ scenario: String) -> String { "\(scenario).\(UUID().uuidString.prefix(8).lowercased())" }

    public func baseURL(_ dialect: DialectKind, token: String) -> String {
        "https://127.0.0.1:\(port)/mock/\(token)/\(dialect == .gemini ? "v1beta" : "v1")"
    }

    /// The JSON bodies the mock received for `token`, oldest first (fetched through the plugin's
    /// own transport: FoundationNetworking cannot trust a test CA).
    public func requests(_ token: String) throws -> [[String: Any]] {
        let collector = BodyCollector()
        _ = try CurlSession().perform(
            HTTPRequest(method: .get, url: "https://127.0.0.1:\(port)/__log/\(token)"), caFile: caFile,
            timeouts: TransportTimeouts(), deadline: Deadline(afterMilliseconds: 10_000),
            cancellation: PluginCancellation(nil), receiver: collector)
        let entries = try JSONSerialization.jsonObject(with: Data(collector.body)) as? [[String: Any]] ?? []
        return entries.map { $0["body"] as? [String: Any] ?? [:] }
    }
}
