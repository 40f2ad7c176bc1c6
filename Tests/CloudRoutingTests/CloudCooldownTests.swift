import Foundation
import MockCloudServer
import Tandem
import Testing

import enum CloudHTTPSCore.DialectKind

/// After a 429 that asked for a long wait (the mock's `ratelimit-long`: 120 s), one host keeps
/// the cloud side `rateLimited` and sends the server nothing more: the router hands the request
/// to the local side without asking the cloud when the policy falls back on rate limits, and
/// otherwise fails at once naming the time left. The wait itself, and its end, are tested on a
/// hand-moved clock in CloudHTTPSTests/RateLimitCooldownTests; across processes (the cooldown
/// file) with the real `tandem` binary and a 6 s wait below.
@Suite struct CloudCooldownTests {
    static let dialects: [DialectKind] = [.gemini, .openai]
    static let prompt = "Hello mock"

    @Test(arguments: dialects)
    func withoutFallbackOnRateLimitsTheNextRequestFailsAtOnce(_ dialect: DialectKind) async throws {
        let fixture = try await CloudHostFixture(dialect, scenario: "ratelimit-long")
        defer { fixture.cleanUp() }
        let host = try fixture.host()
        let model = try host.hybridModel()
        let first = await #expect(throws: TandemError.self) { try await LanguageModelSession(model: model).respond(to: Self.prompt) }
        #expect(first?.code == .backendFailure)
        #expect(first?.failure?.status == .rateLimited)
        #expect(first?.failure?.retryAfterMilliseconds == 120_000)

        guard case .unavailable(.rateLimited, let detail, _) = try #require(host.models["cloud"]).availability else {
            Issue.record("the cloud side is not rateLimited: \(String(describing: host.models["cloud"]?.availability))")
            return
        }
        #expect(detail.contains("asked to wait 120.0 s"), "\(detail)")
        #expect(detail.hasSuffix(" s left"), "\(detail)")

        let second = await #expect(throws: TandemError.self) { try await LanguageModelSession(model: model).respond(to: Self.prompt) }
        #expect(second?.code == .unavailable)
        #expect(second?.primary?.backendID == "cloud")
        #expect(second?.primary?.reason.name == "rateLimited")
        #expect(second?.secondary == nil, "prefer-cloud does not fall back on a rate limit by default")
        #expect(second?.message.contains(" s left") == true, "\(String(describing: second))")
        #expect(try await fixture.requests().count == 1, "the second request never reached the server")
    }

    @Test(arguments: dialects)
    func withFallbackOnRateLimitsTheCloudIsSkippedWithoutARequest(_ dialect: DialectKind) async throws {
        let fixture = try await CloudHostFixture(dialect, scenario: "ratelimit-long", fallbackAlsoOn: ["rateLimited"])
        defer { fixture.cleanUp() }
        let model = try fixture.host().hybridModel()
        let first = try await LanguageModelSession(model: model).respond(to: Self.prompt)
        #expect(first.servedBy == "local")
        #expect(first.fallback.primaryTried)
        #expect(first.fallback.reason?.name == "rateLimited")

        let second = try await LanguageModelSession(model: model).respond(to: Self.prompt)
        #expect(second.servedBy == "local")
        #expect(!second.fallback.primaryTried, "skipped on its availability")
        #expect(second.fallback.reason?.name == "rateLimited")
        #expect(second.fallback.reason?.description.contains(" s left") == true, "\(String(describing: second.fallback.reason))")
        #expect(try await fixture.requests().count == 1)
    }

    /// prefer-local with the cloud as the secondary: a local failure meets a rate-limited cloud,
    /// and the error names both, the cloud's with the time left.
    @Test func aRateLimitedSecondaryIsNamedWithTheTimeLeft() async throws {
        let fixture = try await CloudHostFixture(
            .openai, scenario: "ratelimit-long", mode: "prefer-local", local: ["error": "serverError"])
        defer { fixture.cleanUp() }
        let host = try fixture.host()
        let cloudOnly = try host.hybridModel(routing: .mode(.cloudOnly))
        _ = await #expect(throws: TandemError.self) { try await LanguageModelSession(model: cloudOnly).respond(to: Self.prompt) }
        let error = await #expect(throws: TandemError.self) {
            try await LanguageModelSession(model: try host.hybridModel()).respond(to: Self.prompt)
        }
        #expect(error?.code == .unavailable)
        #expect(error?.primary?.reason.name == "serverError")
        #expect(error?.secondary?.backendID == "cloud")
        #expect(error?.secondary?.reason.name == "rateLimited")
        #expect(error?.message.contains(" s left") == true, "\(String(describing: error))")
        #expect(try await fixture.requests().count == 1)
    }

    // MARK: Across processes (the cooldown file)

    /// A fixture whose server answers 429 asking for 6 s, a wait the plugin does not sit through
    /// (`max_retry_wait_ms` 0), so it leaves the call and starts the cooldown.
    static func shortWaitFixture(_ dialect: DialectKind) async throws -> CloudHostFixture {
        try await CloudHostFixture(dialect, scenario: "ratelimit-6s", cloud: ["max_retry_wait_ms": "0"])
    }

    /// The cloud backend's entry of `tandem availability --json`.
    static func cloudAvailability(_ fixture: CloudHostFixture, environment: [String: String] = [:]) async throws -> (entry: [String: Any], run: CLIRun) {
        let run = try await CLIRun.run(fixture, ["availability", "--json"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let entry = try #require((try run.json()["backends"] as? [String: Any])?["cloud"] as? [String: Any], "\(run.stdout)")
        return (entry, run)
    }

    /// The seconds left in a detail such as "... asked to wait 6.0 s: 4.2 s left".
    static func secondsLeft(_ detail: String) -> Double? {
        guard detail.hasSuffix(" s left"), let colon = detail.lastIndex(of: ":") else { return nil }
        return Double(detail[detail.index(after: colon)...].dropFirst().dropLast(" s left".count))
    }

    /// One `tandem respond` gets the 429; a fresh `tandem availability` then says `rateLimited`
    /// with the time left, a fresh `tandem respond` is refused without a request, and once the
    /// 6 s have passed both see the backend available again and the next request is sent.
    @Test(arguments: dialects)
    func theWaitHoldsInTheNextProcessUntilItHasPassed(_ dialect: DialectKind) async throws {
        let fixture = try await Self.shortWaitFixture(dialect)
        defer { fixture.cleanUp() }
        let first = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "--json", Self.prompt])
        #expect(first.status == 6, "\(first.stderr)")
        let error = try #require(try first.json()["error"] as? [String: Any])
        #expect(error["status"] as? String == "rateLimited")
        #expect(error["retryAfterMs"] as? Int == 6_000, "\(error)")

        let (during, _) = try await Self.cloudAvailability(fixture)
        #expect(during["available"] as? Bool == false, "\(during)")
        #expect(during["reason"] as? String == "rateLimited", "\(during)")
        let detail = during["detail"] as? String ?? ""
        #expect(detail.contains("asked to wait 6.0 s: "), "\(detail)")
        let left = try #require(Self.secondsLeft(detail), "no time left in \(detail)")
        #expect(left > 0 && left <= 6, "\(detail)")

        let refused = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "--json", Self.prompt])
        #expect(refused.status == 4, "unavailable: \(refused.stderr)")
        let refusal = try #require(try refused.json()["error"] as? [String: Any])
        #expect((refusal["primary"] as? [String: Any])?["reason"] as? String == "rateLimited", "\(refusal)")
        #expect((refusal["message"] as? String)?.contains(" s left") == true, "\(refusal)")
        #expect(try await fixture.requests().count == 1, "the fresh process sent nothing")

        // Past the wait (the time left was measured before the refused run, so this is enough).
        try await Task.sleep(for: .milliseconds(Int(left * 1000) + 200))
        let (after, _) = try await Self.cloudAvailability(fixture)
        #expect(after["available"] as? Bool == true, "\(after)")
        let again = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "--json", Self.prompt])
        #expect(again.status == 6, "the server's 429 again: \(again.stderr)")
        #expect(try await fixture.requests().count == 2, "the request after the wait was sent")
    }

    /// A cooldown file that is not JSON is not believed: `tandem availability` exits 0, says
    /// available (no process saw a 429 since), and warns naming the file and what is wrong; the
    /// next 429 replaces the file, and the wait holds again.
    @Test func aCorruptCooldownFileIsNamedAndReplaced() async throws {
        let fixture = try await Self.shortWaitFixture(.openai)
        defer { fixture.cleanUp() }
        _ = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", Self.prompt])
        let folder = fixture.cacheFolder + "/tandem/cooldown"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(files.count == 1 && files[0].hasPrefix("openai-gpt-4o-mini-") && files[0].hasSuffix(".json"), "\(files)")
        let file = folder + "/" + files[0]
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        #expect(stored["asked_ms"] as? Int == 6_000, "\(stored)")
        #expect(((stored["until_unix_ms"] as? Int) ?? 0) > Int(Date().timeIntervalSince1970 * 1000), "\(stored)")

        try "{\"until_unix_ms\": 17".write(toFile: file, atomically: false, encoding: .utf8)
        let (entry, run) = try await Self.cloudAvailability(fixture)
        #expect(entry["available"] as? Bool == true, "\(entry)")
        #expect(run.stderr.contains("rate-limit cooldown file \(file) is not JSON"), "\(run.stderr)")

        _ = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", Self.prompt])
        #expect(try await fixture.requests().count == 2)
        let (replaced, _) = try await Self.cloudAvailability(fixture)
        #expect(replaced["reason"] as? String == "rateLimited", "\(replaced)")
    }

    /// A cache folder that cannot be made (XDG_CACHE_HOME is a regular file): the 429 is reported
    /// as before, with a warning that the wait is kept in this process only, naming the path and
    /// the system's reason; nothing crashes, and a fresh process has no wait to read.
    @Test func anUnwritableCacheFolderIsAWarningNotACrash() async throws {
        let fixture = try await Self.shortWaitFixture(.gemini)
        defer { fixture.cleanUp() }
        let notAFolder = fixture.folder + "/cache-is-a-file"
        try "".write(toFile: notAFolder, atomically: false, encoding: .utf8)
        let environment = ["XDG_CACHE_HOME": notAFolder]
        let run = try await CLIRun.run(fixture, ["respond", "--mode", "cloud-only", "--json", Self.prompt], environment: environment)
        #expect(run.status == 6, "\(run.stderr)")
        #expect(try run.json()["error"].flatMap { ($0 as? [String: Any])?["status"] as? String } == "rateLimited")
        #expect(run.stderr.contains("the rate-limit cooldown is kept in this process only: cannot create the folder \(notAFolder)/tandem: Not a directory"), "\(run.stderr)")
        let (entry, _) = try await Self.cloudAvailability(fixture, environment: environment)
        #expect(entry["available"] as? Bool == true, "\(entry)")
    }
}
