import Foundation
import MockCloudServer
import Tandem
import Testing

import enum CloudHTTPSCore.DialectKind

/// The recognisable key (`MockServer.apiKey`, in the environment of every run) never appears in
/// anything `tandem respond` prints, on success or on any error path, plain, `--json` or
/// `--stream`, with every log line enabled; nor in the errors the host API hands back.
/// Serialized: forty processes at once would starve the timing tests of other suites.
@Suite(.serialized) struct CloudSecretTests {
    struct Run: Sendable, CustomStringConvertible {
        var dialect: DialectKind
        var scenario: String
        var flags: [String]
        var description: String { "\(dialect) \(scenario) \(flags.joined(separator: " "))" }
    }

    /// Success, a server quoting the key back (`echo-key`), the error classes, a cut stream,
    /// garbage, a refused connection (`stopped`, a port nobody listens on) and a rejected key.
    static let scenarios = ["ok", "echo-key", "unavailable", "ratelimit", "notfound", "notjson", "cut", "garbage", "stopped", "wrong-key"]
    static let runs: [Run] = [DialectKind.gemini, .openai].flatMap { dialect in
        scenarios.flatMap { scenario in
            [["--json"], ["--stream"]].map { Run(dialect: dialect, scenario: scenario, flags: $0) }
        }
    }

    static func fixture(_ dialect: DialectKind, _ scenario: String) async throws -> CloudHostFixture {
        var cloud = ["max_attempts": "2"]
        switch scenario {
        case "stopped": cloud["base_url"] = "https://127.0.0.1:\(try closedPort())/mock/ok/\(dialect == .gemini ? "v1beta" : "v1")"
        case "wrong-key": cloud["api_key_env"] = dialect == .gemini ? "TANDEM_TEST_WRONG_KEY" : "TANDEM_TEST_WRONG_OPENAI_KEY"
        default: break
        }
        let mockScenario = ["stopped", "wrong-key"].contains(scenario) ? "ok" : scenario
        return try await CloudHostFixture(dialect, scenario: mockScenario, mode: "cloud-only", cloud: cloud)
    }

    @Test(arguments: runs)
    func theKeyNeverAppearsInWhatTheCLIPrints(_ run: Run) async throws {
        let fixture = try await Self.fixture(run.dialect, run.scenario)
        defer { fixture.cleanUp() }
        let outcome = try await CLIRun.run(fixture, ["respond"] + run.flags + ["Tell me a secret"])
        #expect(!outcome.stdout.isEmpty || !outcome.stderr.isEmpty, "the run printed something: \(run)")
        #expect(run.scenario == "ok" ? outcome.status == 0 : outcome.status != 0, "\(run): \(outcome.stderr)")
        #expect(!outcome.leaksKey, "\(run)\nstdout: \(outcome.stdout)\nstderr: \(outcome.stderr)")
        if run.scenario == "wrong-key" {
            let rejected = MockServer.wrongKeyVariables.values
            #expect(!rejected.contains { (outcome.stdout + outcome.stderr).contains($0) }, "a rejected key is a key too")
        }
        if run.scenario == "echo-key" {
            // The server's message is passed on, with the key cut out of it.
            #expect(outcome.stderr.contains("cannot use key") && outcome.stderr.contains("[redacted]"), "\(outcome.stderr)")
        }
    }

    /// `backends` and `availability` describe the configured cloud without its key.
    @Test(arguments: [DialectKind.gemini, .openai])
    func theKeyNeverAppearsInBackendsOrAvailability(_ dialect: DialectKind) async throws {
        let fixture = try await Self.fixture(dialect, "ok")
        defer { fixture.cleanUp() }
        let availability = try await CLIRun.run(fixture, ["availability", "--json"])
        #expect(availability.status == 0, "\(availability.stderr)")
        let cloud = try #require((try availability.json()["backends"] as? [String: Any])?["cloud"] as? [String: Any])
        #expect(cloud["available"] as? Bool == true)
        let backends = try await CLIRun.run(fixture, ["backends", "--json"])
        #expect(backends.status == 0, "\(backends.stderr)")
        #expect(backends.stdout.contains("tandem.cloud"))
        #expect(!availability.leaksKey && !backends.leaksKey)
    }

    @Test(arguments: [DialectKind.gemini, .openai])
    func theKeyNeverAppearsInHostErrors(_ dialect: DialectKind) async throws {
        for scenario in ["echo-key", "unavailable", "ratelimit", "notfound"] {
            let fixture = try await Self.fixture(dialect, scenario)
            defer { fixture.cleanUp() }
            let error = await #expect(throws: TandemError.self) { try await fixture.session().respond(to: "Tell me a secret") }
            let texts = [error.map { "\($0)" }, error?.message, error?.failure?.message, error?.primary.map { "\($0)" }]
            #expect(texts.allSatisfy { !($0 ?? "").contains(MockServer.apiKey) }, "\(dialect) \(scenario): \(texts)")
        }
    }

    /// A loopback port with nothing listening on it (bound, then released).
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CLIOutputError(description: "socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw CLIOutputError(description: "bind: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
