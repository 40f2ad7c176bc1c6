import CloudHTTPSCore
import Foundation
import TandemBridge
import TandemPluginKit
import Testing

/// The Python mock server (MockServer/mock_server.py), started once per test process on a random
/// port of 127.0.0.1 with a CA made for this run. It exits when this process closes its stdin.
final class MockServer: @unchecked Sendable {
    /// The recognisable key every test uses; the secrecy tests search all output for it.
    static let apiKey = "tandem-SECRET-key-5f9a27c3e1"
    static let keyVariable = "TANDEM_TEST_CLOUD_KEY"
    /// Variables holding keys the mock rejects. All are set once, before any test reads the
    /// environment (setenv while other threads call getenv is not safe).
    static let wrongKeyVariables = ["TANDEM_TEST_WRONG_KEY": "not-the-right-key", "TANDEM_TEST_WRONG_OPENAI_KEY": "sk-wrong"]

    let port: Int
    let caFile: String
    private let process: Process
    private let stdin: Pipe

    static let shared: MockServer = {
        do { return try MockServer() } catch { fatalError("mock server failed to start: \(error)") }
    }()

    static var scriptPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MockServer/mock_server.py").path
    }

    private init() throws {
        setenv(Self.keyVariable, Self.apiKey, 1)
        for (name, value) in Self.wrongKeyVariables { setenv(name, value, 1) }
        let workdir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-mock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.scriptPath, "--workdir", workdir.path]
        var environment = ProcessInfo.processInfo.environment
        environment["MOCK_API_KEY"] = Self.apiKey
        process.environment = environment
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        guard let line = Self.readLine(stdout.fileHandleForReading),
              let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let port = json["port"] as? Int, let ca = json["ca"] as? String
        else { throw MockError.noBanner }
        self.port = port
        caFile = ca
    }

    enum MockError: Error { case noBanner }

    private static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let data = handle.readData(ofLength: 1)
            guard let byte = data.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// A scenario token unique to one test, so request counters and logs are its own.
    static func token(_ scenario: String) -> String { "\(scenario).\(UUID().uuidString.prefix(8).lowercased())" }

    func baseURL(_ dialect: DialectKind, token: String) -> String {
        "https://127.0.0.1:\(port)/mock/\(token)/\(dialect == .gemini ? "v1beta" : "v1")"
    }

    /// The JSON bodies the mock received for `token`, oldest first (fetched through the plugin's
    /// own transport: FoundationNetworking cannot trust a test CA).
    func requests(_ token: String) throws -> [[String: Any]] {
        let collector = BodyCollector()
        _ = try CurlSession().perform(
            HTTPRequest(method: .get, url: "https://127.0.0.1:\(port)/__log/\(token)"), caFile: caFile,
            timeouts: TransportTimeouts(), deadline: Deadline(afterMilliseconds: 10_000),
            cancellation: PluginCancellation(nil), receiver: collector)
        let entries = try JSONSerialization.jsonObject(with: Data(collector.body)) as? [[String: Any]] ?? []
        return entries.map { $0["body"] as? [String: Any] ?? [:] }
    }
}
