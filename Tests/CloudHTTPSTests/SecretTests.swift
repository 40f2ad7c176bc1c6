@testable import CloudHTTPSCore
import MockCloudServer
import Foundation
import TandemBridge
import TandemPluginKit
import Testing

/// The key never leaves the plugin: not in errors, events, results, availability details or
/// logs, whatever path a call takes.
@Suite struct SecretTests {
    static let errorScenarios = [
        "echo-key", "blocked", "safety", "badrequest", "notfound", "internal", "cut", "cut-clean", "garbage", "html",
        "stream-error", "notjson", "close", "ratelimit", "quota", "refusal", "filter", "array-error", "context", "ok", "tools", "json",
    ]

    @Test func theKeyAppearsInNoOutputOnAnyPath() throws {
        var outputs: [String] = []
        for dialect in DialectKind.allCases {
            for scenario in Self.errorScenarios {
                for stream in ["true", "false"] {
                    let (model, _) = try ModelFactory.mock(dialect, scenario, ["stream": stream, "max_attempts": "1"])
                    let run = GenerationRun.run(model, .prompt("x", options: BackendOptions(responseSchema: scenario == "json" ? #"{"type":"object"}"# : nil)))
                    switch run.result {
                    case .success(let result): outputs.append("\(result)")
                    case .failure(let failure): outputs.append(failure.description)
                    }
                    outputs += run.recorder.events.map { "\($0)" }
                    if case .unavailable(_, let detail, _) = model.availability(locale: nil) { outputs.append(detail) }
                }
                let (model, _) = try ModelFactory.mock(dialect, scenario, ["max_attempts": "1"])
                do { outputs.append("\(try model.embed(["a"], cancellation: .init(nil)).count)") } catch { outputs.append(error.description) }
                do { outputs.append("\(try model.countTokens(.prompt("a")))") } catch { outputs.append(error.description) }
                do { outputs.append("\(try model.listModels())") } catch { outputs.append(error.description) }
            }
        }
        // Transport failures: refused, untrusted certificate, first-byte and idle timeouts.
        for (scenario, extra) in [
            ("ok", ["base_url": "https://127.0.0.1:\(TransportTests.closedPort())/v1beta"]), ("ok", ["ca_file": ""]),
            ("slow", ["first_byte_timeout_ms": "200"]), ("stall", ["idle_timeout_ms": "200"]),
        ] {
            let (model, _) = try ModelFactory.mock(.gemini, scenario, extra)
            let run = GenerationRun.run(model, .prompt("x"))
            outputs.append(run.failure?.description ?? "no failure for \(scenario)")
        }
        // The careless server did quote it, and it was redacted.
        #expect(outputs.contains { $0.contains("cannot use key [redacted]") || $0.contains("cannot use key Bearer [redacted]") })
        #expect(outputs.count > 200)
        let leaks = outputs.filter { $0.contains(MockServer.apiKey) }
        #expect(leaks.isEmpty, "key leaked in: \(leaks.map { String($0.prefix(120)) })")
    }

    @Test func aKeyFileReadableByOthersIsRefusedWithoutReadingIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("gemini.key").path
        try (MockServer.apiKey + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        let token = MockServer.token("ok")
        var values = ModelFactory.settings(.gemini, token: token)
        values["api_key_env"] = nil
        values["api_key_file"] = path
        let model = try ModelFactory.open(values)
        guard case .unavailable(.notConfigured, let detail, _) = model.availability(locale: nil) else {
            Issue.record("a world-readable key file was accepted"); return
        }
        #expect(detail.contains("chmod 600"))
        #expect(!detail.contains(MockServer.apiKey))
        let failure = GenerationRun.run(model, .prompt("x")).failure
        #expect(failure?.status == .auth)
        #expect(try MockServer.shared.requests(token).isEmpty)

        chmod(path, 0o600)
        #expect(model.availability(locale: nil) == .available)
        let run = GenerationRun.run(model, .prompt("from a key file"))
        #expect(run.recorder.text == "Echo: from a key file")

        try "".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(GenerationRun.run(model, .prompt("x")).failure?.message.contains("is empty") == true)
        try FileManager.default.removeItem(atPath: path)
        #expect(GenerationRun.run(model, .prompt("x")).failure?.message.contains("cannot be opened") == true)
    }

    @Test func aKeyIsNeverASetting() {
        var values = ModelFactory.settings(.gemini, token: "x")
        values["api_key"] = MockServer.apiKey
        do { _ = try ModelFactory.open(values); Issue.record("api_key accepted") } catch {
            #expect(error.status == .invalidArgument)
            #expect(error.message.contains("api_key_env"))
            #expect(!error.message.contains(MockServer.apiKey))
        }
    }
}
