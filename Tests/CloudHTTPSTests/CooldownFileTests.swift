import CloudHTTPSCore
import Foundation
import Synchronization
import TandemBridge
import TandemPluginKit
import Testing

/// The cooldown on disk, as two processes see it: each is a `RateLimitCooldown` with its own
/// `CooldownFile` object on the same path and the same hand-moved wall clock. The real binary
/// across real processes is in CloudRoutingTests/CloudCooldownTests.
@Suite struct CooldownFileTests {
    /// Warnings a file gave, in order.
    final class Warnings: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-cooldown-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func rateLimited(_ milliseconds: UInt64) -> BackendFailure {
        var failure = BackendFailure(.rateLimited, "429")
        failure.retryAfterMilliseconds = milliseconds
        return failure
    }

    @Test func aWaitOneProcessRecordedHoldsInAnotherUntilItHasPassed() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = RateLimitCooldownTests.HandClock()
        let path = folder + "/cache/tandem/cooldown/openai-m-0123.json"
        let warnings = Warnings()
        func process() -> RateLimitCooldown {
            RateLimitCooldown(now: clock.read, file: CooldownFile(path: path, backend: "openai model m", warn: warnings.add))
        }
        let first = process()
        first.record(Self.rateLimited(60_000))
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(stored["until_unix_ms"] as? Int == Int(clock.read()) + 60_000)
        #expect(stored["asked_ms"] as? Int == 60_000)
        #expect(stored["backend"] as? String == "openai model m")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/cache/tandem/cooldown")
        #expect((attributes[.posixPermissions] as? Int) == 0o700, "the folders are made private")

        clock.advance(20_000)
        let second = process()
        #expect(second.remainingMilliseconds == 40_000)
        let refusal = try #require(second.refusal())
        #expect(refusal.retryAfterMilliseconds == 40_000)
        #expect(refusal.message.hasSuffix("asked to wait 60.0 s: 40.0 s left; no request sent"), "\(refusal.message)")

        // A shorter wait seen by the second process neither shortens the file nor the first's.
        second.record(Self.rateLimited(1_000))
        clock.advance(1_500)
        #expect(first.remainingMilliseconds == 38_500)
        #expect(process().remainingMilliseconds == 38_500)
        // A longer one lengthens both.
        second.record(Self.rateLimited(50_000))
        #expect(first.remainingMilliseconds == 50_000)

        clock.advance(50_000)
        #expect(first.availability == nil && second.availability == nil && process().availability == nil)
        #expect(warnings.all.isEmpty, "\(warnings.all)")
    }

    /// A wall clock set back after the write cannot stretch the wait past what the server asked.
    @Test func theTimeLeftNeverExceedsTheDelayAskedFor() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = RateLimitCooldownTests.HandClock()
        let path = folder + "/cooldown.json"
        RateLimitCooldown(now: clock.read, file: CooldownFile(path: path, backend: "b")).record(Self.rateLimited(10_000))
        clock.advance(-3_600_000)
        #expect(RateLimitCooldown(now: clock.read, file: CooldownFile(path: path, backend: "b")).remainingMilliseconds == 10_000)
    }

    /// Not JSON, the wrong shape, someone else's file: not believed, warned about once per
    /// version of the file (availability asks before every request), and replaced by the next 429.
    @Test func anInvalidFileIsWarnedAboutOnceAndReplaced() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = RateLimitCooldownTests.HandClock()
        let path = folder + "/cooldown.json"
        let warnings = Warnings()
        let cooldown = RateLimitCooldown(now: clock.read, file: CooldownFile(path: path, backend: "b", warn: warnings.add))
        let cases: [(text: String, mode: Int, why: String)] = [
            ("{\"until_unix_ms\": 17", 0o600, "is not JSON: "),
            ("[1, 2]", 0o600, "is a JSON array, not an object"),
            ("{\"until_unix_ms\": \"soon\", \"asked_ms\": 5}", 0o600, "until_unix_ms: expected a positive integer, got \"soon\""),
            ("{\"until_unix_ms\": 9999999999999, \"asked_ms\": -5}", 0o600, "asked_ms: expected a positive integer, got -5"),
            ("{\"until_unix_ms\": 9999999999999, \"asked_ms\": 5000}", 0o666, "belongs to another user or may be written by others"),
        ]
        for (index, item) in cases.enumerated() {
            try? FileManager.default.removeItem(atPath: path)
            #expect(FileManager.default.createFile(atPath: path, contents: Data(item.text.utf8), attributes: [.posixPermissions: item.mode]))
            #expect(cooldown.availability == nil, "\(item.text)")
            #expect(cooldown.availability == nil)
            #expect(warnings.all.count == index + 1, "one warning per version of the file: \(warnings.all)")
            #expect(warnings.all.last?.hasPrefix("rate-limit cooldown file \(path) \(item.why)") == true, "\(warnings.all.last ?? "")")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        cooldown.record(Self.rateLimited(5_000))
        #expect(RateLimitCooldown(now: clock.read, file: CooldownFile(path: path, backend: "b")).remainingMilliseconds == 5_000)
    }

    /// A file that cannot be written is a warning naming it and the system's reason; the wait
    /// still holds in this process.
    @Test func anUnwritableFileKeepsTheWaitInThisProcess() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/file", contents: Data()))
        let warnings = Warnings()
        let cooldown = RateLimitCooldown(
            now: RateLimitCooldownTests.HandClock().read, file: CooldownFile(path: folder + "/file/tandem/cooldown/x.json", backend: "b", warn: warnings.add))
        cooldown.record(Self.rateLimited(5_000))
        #expect(cooldown.remainingMilliseconds == 5_000)
        #expect(warnings.all == ["the rate-limit cooldown is kept in this process only: cannot create the folder \(folder)/file/tandem: Not a directory"])
    }

    /// One file per server, model and key origin; the same settings always name the same file.
    @Test func theFileNameIsTheBackendsIdentity() throws {
        func file(_ values: [String: String]) throws -> String? {
            var settings = PluginSettings(["dialect": "openai", "model": "gpt-4o-mini"].merging(values) { _, new in new })
            return CooldownFile.forModel(try CloudSettings(&settings), cacheFolder: "/cache")?.path
        }
        let base = try #require(try file([:]))
        #expect(base.hasPrefix("/cache/cooldown/openai-gpt-4o-mini-") && base.hasSuffix(".json"), "\(base)")
        #expect(try file([:]) == base)
        #expect(try file(["display_name": "another name"]) == base, "what the server sees is the identity")
        #expect(try file(["base_url": "https://other.example/v1"]) != base)
        #expect(try file(["api_key_env": "OTHER_KEY"]) != base)
        #expect(try file(["model": "gpt-4o"]) != base)
        var settings = PluginSettings(["dialect": "openai", "model": "gpt-4o-mini"])
        #expect(CooldownFile.forModel(try CloudSettings(&settings), cacheFolder: nil) == nil)
    }
}
