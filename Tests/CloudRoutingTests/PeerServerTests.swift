import Foundation
import PluginFixtures
import Synchronization
import Tandem
import Testing

import class CloudHTTPSCore.CloudModel
import struct CloudHTTPSCore.CloudSettings
import struct TandemPluginKit.PluginSettings

/// `tandem.cloud` with dialect `openai` against a real OpenAI-compatible server on this machine
/// (`make test-peers`): respond, stream, schema, chat, the fallback when the server is stopped,
/// and a server killed mid-stream. The scenarios know the server only by the command that starts
/// it and the base URL it then serves, so the same ones run against llama.cpp's `llama-server`
/// and any other peer (`tandem serve`, through the Makefile's TANDEM_SERVE_PEER_COMMAND).
///
/// Opt-in: it runs when TANDEM_PEER_COMMAND is set, the server's command line with `{port}`
/// where the port goes (a free loopback port is chosen); TANDEM_PEER_NAME labels the output,
/// TANDEM_PEER_MODEL is the model asked for (default `default`).
@Suite(.serialized, .enabled(if: PeerServer.command != nil, "set TANDEM_PEER_COMMAND (make test-peers)"))
struct PeerServerTests {
    static let prompt = "What is the capital of France? Answer in one word."

    /// A config whose `cloud` backend points at `server` (no key, no CA: loopback http), with
    /// the fake as the local side.
    static func fixture(_ server: PeerServer, mode: String = "cloud-only", cloud: [String: String] = [:]) async throws -> CloudHostFixture {
        try await CloudHostFixture(
            .openai, scenario: "peer", mode: mode, model: PeerServer.model,
            cloud: [
                "base_url": server.baseURL, "ca_file": "", "api_key_env": "", "api_key_required": "false",
                "max_tokens_field": "max_tokens", "idle_timeout_ms": "60000", "first_byte_timeout_ms": "120000",
            ].merging(cloud) { _, new in new })
    }

    @Test(arguments: [true, false])
    func respondAnswersThroughTheOpenAIDialect(stream: Bool) async throws {
        let server = try await PeerServer.shared()
        let fixture = try await Self.fixture(server, cloud: ["stream": stream ? "true" : "false"])
        defer { fixture.cleanUp() }
        let run = try await CLIRun.run(fixture, ["respond", "--max-tokens", "8", "--temperature", "0", "--json", Self.prompt])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try run.json()
        let text = try #require(json["text"] as? String)
        #expect(!text.isEmpty)
        #expect(json["servedBy"] as? String == "cloud")
        #expect((json["modelVersion"] as? String)?.isEmpty == false)
        #expect(["stop", "maxTokens"].contains(json["finishReason"] as? String ?? ""), "\(json)")
        print("\(PeerServer.name) respond (plugin stream: \(stream)): \(json["modelVersion"] ?? ""), \(json["finishReason"] ?? ""): \(text)")
    }

    @Test func streamPrintsPiecesAsTheyArrive() async throws {
        let server = try await PeerServer.shared()
        let fixture = try await Self.fixture(server)
        defer { fixture.cleanUp() }
        let run = try await CLIRun.run(fixture, ["respond", "--stream", "--json", "--max-tokens", "8", "--temperature", "0", Self.prompt])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.stdout.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let deltas = lines.compactMap { $0["delta"] as? String }
        #expect(deltas.count > 1, "streamed piece by piece: \(deltas)")
        #expect(lines.last?["text"] as? String == deltas.joined())
        #expect(lines.last?["servedBy"] as? String == "cloud")
        print("\(PeerServer.name) stream: \(deltas.count) pieces")
    }

    /// The schema goes out as `response_format`; whatever the server did, the host validates the
    /// document, and the CLI prints it canonical.
    @Test func schemaAnswersWithAValidatedDocument() async throws {
        let server = try await PeerServer.shared()
        let fixture = try await Self.fixture(server)
        defer { fixture.cleanUp() }
        let schema = #"{"type": "object", "properties": {"city": {"type": "string", "maxLength": 24}, "country": {"type": "string", "maxLength": 24}}, "required": ["city", "country"]}"#
        try schema.write(toFile: fixture.folder + "/city.json", atomically: true, encoding: .utf8)
        let run = try await CLIRun.run(fixture, ["respond", "--schema", "city.json", "--max-tokens", "100", "--temperature", "0", "Name a city and its country."])
        #expect(run.status == 0, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: String], "\(run.stdout)")
        #expect(Set(document.keys) == ["city", "country"])
        print("\(PeerServer.name) schema: \(run.stdout.trimmingCharacters(in: .newlines))")
    }

    /// Two turns on one session: the second carries the first (its prompt is longer by the whole
    /// first exchange), and both are served by the peer.
    @Test func chatCarriesTheConversation() async throws {
        let server = try await PeerServer.shared()
        let fixture = try await Self.fixture(server, cloud: ["stream": "false"])
        defer { fixture.cleanUp() }
        let session = try fixture.session(instructions: "You are brief.")
        let options = RequestOptions.cloud(GenerationConfig(temperature: 0, maxOutputTokens: 8))
        let first = try await session.respond(to: "My name is Ada.", options: options)
        let second = try await session.respond(to: "What is my name?", options: options)
        #expect(first.servedBy == "cloud" && second.servedBy == "cloud")
        #expect(second.usage.promptTokens > first.usage.promptTokens + first.usage.outputTokens, "\(first.usage) then \(second.usage)")
        #expect(session.transcript.entries.count == 5)  // instructions, two prompts, two responses
        print("\(PeerServer.name) chat: \(first.content) / \(second.content)")
    }

    /// A stopped server refuses connections: an offline-class failure, so prefer-cloud answers
    /// from the local side, and cloud-only reports `offline`.
    @Test func aStoppedServerFallsBackToTheLocalSide() async throws {
        let server = try await PeerServer.start()
        let fixture = try await Self.fixture(server, mode: "prefer-cloud")
        defer { fixture.cleanUp() }
        let options = RequestOptions.cloud(GenerationConfig(maxOutputTokens: 8))
        let before = try await fixture.session().respond(to: Self.prompt, options: options)
        #expect(before.servedBy == "cloud")
        try await server.stop()

        let after = try await fixture.session().respond(to: Self.prompt, options: options)
        #expect(after.servedBy == "local")
        #expect(after.fallback.primaryTried)
        #expect(after.fallback.reason?.name == "offline", "\(String(describing: after.fallback.reason))")
        let cloudOnly = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "--json", Self.prompt])
        #expect(cloudOnly.status == 6, "\(cloudOnly.stderr)")
        let error = try #require(try cloudOnly.json()["error"] as? [String: Any])
        #expect(error["status"] as? String == "offline", "\(error)")
        print("\(PeerServer.name) stopped: prefer-cloud served by \(after.servedBy) (\(after.fallback.reason.map(String.init(describing:)) ?? "")); cloud-only: \(error["message"] ?? "")")
    }

    /// Killed after the first piece: the stream ends with the backend's error soon after (no
    /// hang waiting for the idle timeout), and nothing falls back once output was delivered.
    @Test func aServerKilledMidStreamEndsTheStreamWithAnError() async throws {
        let server = try await PeerServer.start()
        let fixture = try await Self.fixture(server, mode: "prefer-cloud")
        defer { fixture.cleanUp() }
        let session = try fixture.session()
        let options = RequestOptions.cloud(GenerationConfig(temperature: 0.8, maxOutputTokens: 1000))
        var pieces = 0
        var killedAt: ContinuousClock.Instant?
        do {
            for try await snapshot in session.streamResponse(to: "Write a very long story about a lighthouse keeper.", options: options) {
                guard snapshot.response == nil else { break }
                pieces += 1
                if killedAt == nil {
                    killedAt = .now
                    server.kill()
                }
            }
            Issue.record("the stream finished although the server was killed after \(pieces) pieces")
        } catch let error as TandemError {
            let waited = killedAt.map { ContinuousClock.now - $0 } ?? .zero
            #expect(error.code == .backendFailure, "\(error)")
            #expect(error.secondary == nil, "output was delivered: no fallback")
            #expect(waited < .seconds(5), "ended \(waited) after the kill")
            print("\(PeerServer.name) killed mid-stream: \(pieces) pieces, then after \(waited): \(error)")
        }
        #expect(killedAt != nil, "no piece arrived before the kill")
    }
}

/// One peer server process on a free loopback port, started from TANDEM_PEER_COMMAND; ready
/// when its `/v1/models` answers through the plugin's own client.
final class PeerServer: @unchecked Sendable {
    static var command: String? { ProcessInfo.processInfo.environment["TANDEM_PEER_COMMAND"].flatMap { $0.isEmpty ? nil : $0 } }
    static var name: String { ProcessInfo.processInfo.environment["TANDEM_PEER_NAME"] ?? "peer" }
    static var model: String { ProcessInfo.processInfo.environment["TANDEM_PEER_MODEL"] ?? "default" }

    let port: Int
    let process: TestProcess
    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// The server most scenarios share, started on first use and stopped when the tests end.
    static func shared() async throws -> PeerServer { try await runOffThePool { try sharedServer.get() } }
    private static let sharedServer = Result { try PeerServer() }

    /// A server of its own, for the scenarios that stop or kill it.
    static func start() async throws -> PeerServer { try await runOffThePool { try PeerServer() } }

    struct PeerError: Error, CustomStringConvertible { var description: String }

    private init() throws {
        guard let command = Self.command else { throw PeerError(description: "TANDEM_PEER_COMMAND is not set") }
        port = try CloudSecretTests.closedPort()
        let words = command.replacingOccurrences(of: "{port}", with: "\(port)").split(separator: " ").map(String.init)
        guard let program = words.first else { throw PeerError(description: "TANDEM_PEER_COMMAND is empty") }
        // Its output stays in memory (TestProcess reads both streams), quoted when it fails.
        process = try TestProcess(program, Array(words.dropFirst()))
        killAtExit(process.pid)

        var parsed = PluginSettings([
            "dialect": "openai", "model": Self.model, "base_url": baseURL, "api_key_required": "false",
            "connect_timeout_ms": "1000", "total_timeout_ms": "2000",
        ])
        let probe = CloudModel(settings: try CloudSettings(&parsed))
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(120) {
            if let models = try? probe.listModels(), !models.isEmpty { return }
            guard process.isRunning else {
                let outcome = process.wait()
                throw PeerError(description: "\(words[0]) exited with \(outcome.status); its last output: \(outcome.stderr.suffix(2000))")
            }
            Thread.sleep(forTimeInterval: 0.25)
        }
        process.signal(SIGTERM)
        throw PeerError(description: "\(Self.name) did not list its models within 120 s; its last output: \(process.stderr.suffix(2000))")
    }

    /// SIGTERM, then waits for the process to end (SIGKILL after 10 s).
    func stop() async throws {
        let process = self.process
        try await runOffThePool {
            process.signal(SIGTERM)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { process.signal(SIGKILL) }
            _ = process.wait()
        }
    }

    /// SIGKILL at once: no goodbye on the connection.
    func kill() { process.signal(SIGKILL) }
}

/// Servers still running when the test process exits are killed with it.
private let peerProcesses = Mutex<[pid_t]>([])
private func killAtExit(_ pid: pid_t) {
    let first = peerProcesses.withLock { list in
        list.append(pid)
        return list.count == 1
    }
    if first {
        atexit {
            for pid in peerProcesses.withLock({ $0 }) { kill(pid, SIGKILL) }
        }
    }
}
