import Foundation
import PluginFixtures
import Testing
@testable import Tandem

/// Backends in child processes (`"isolation": "process"`, the default): plugins that crash,
/// hang, flood stderr or send garbage, built from Tests/LoaderTests/Fixtures/crashing_plugin.c.
/// Each gives a clear `backendCrashed`, the host lives on, and the secondary answers where the
/// routing rules allow.
@Suite struct IsolationTests {
    /// A plugins folder with the crashing plugin and a copy of the shipped tandem.fake.
    static func folder(entryCrash: Bool = false) throws -> PluginFolder {
        let folder = try PluginFolder()
        try folder.compile(entryCrash ? "broken.so" : "crashing.so", source: PluginFolder.crashingSource,
                           defines: entryCrash ? ["CRASH_IN_ENTRY"] : [])
        try FileManager.default.copyItem(atPath: ModelFactory.pluginsDirectory + "/tandem.fake.so", toPath: folder.file("tandem.fake.so"))
        return folder
    }

    /// prefer-local over the crashing plugin (`crash` setting) and a fake cloud secondary.
    static func config(_ folder: PluginFolder, crash: String, routing: String = #""mode": "prefer-local""#) -> String {
        #"""
        {"plugins_dir": "\#(folder.path)", \#(routing),
         "backends": {"local": {"plugin": "test.crashing", "settings": {"crash": "\#(crash)"}},
                      "cloud": {"plugin": "tandem.fake", "settings": {"kind": "cloud", "reply": "from the cloud"}}}}
        """#
    }

    static func host(_ folder: PluginFolder, crash: String, routing: String = #""primary": "local""#) throws -> TandemHost {
        TandemHost.open(try TandemConfig.parse(Data(config(folder, crash: crash, routing: routing).utf8), file: folder.file("tandem.json")))
    }

    // MARK: Through the tandem binary

    /// What the fallback record must say for each way of dying.
    static let crashes: [(crash: String, says: String)] = [
        ("segfault", "was killed by signal 11 (SIGSEGV)"),
        ("abort", "was killed by signal 6 (SIGABRT); its last stderr line: about to abort"),
        ("exit", "ended during generate and exited with status 0"),
        ("garbage", "was killed by signal 11 (SIGSEGV)"),
        ("stderr", "was killed by signal 6 (SIGABRT); its last stderr line: last words"),
    ]

    @Test(arguments: crashes.map(\.crash))
    func aCrashingPrimaryLeavesTheRequestToTheSecondary(_ crash: String) throws {
        let folder = try Self.folder()
        let cli = try CLIRunner(config: Self.config(folder, crash: crash))
        defer { cli.cleanUp() }
        let outcome = try cli.run(["respond", "--json", "Say something"])
        #expect(outcome.status == 0, "\(outcome.stderr.suffix(2000))")
        let json = try outcome.json()
        #expect(json["text"] as? String == "from the cloud")
        #expect(json["servedBy"] as? String == "cloud")
        let fallback = try #require(json["fallback"] as? [String: Any])
        #expect(fallback["reason"] as? String == "backendCrashed")
        let detail = fallback["detail"] as? String ?? ""
        let says = Self.crashes.first { $0.crash == crash }!.says
        #expect(detail.contains(says), "\(detail)")
        #expect(detail.contains("local (test.crashing): the plugin's process"), "\(detail)")
    }

    /// 1 MiB on stderr never blocks the call: the answer arrives and the noise is passed on.
    @Test func aChildFloodingStderrStillAnswers() throws {
        let folder = try Self.folder()
        let cli = try CLIRunner(config: Self.config(folder, crash: "stderr_answer"))
        defer { cli.cleanUp() }
        let outcome = try cli.run(["respond", "Say something"])
        #expect(outcome.status == 0, "\(outcome.stderr.suffix(2000))")
        #expect(outcome.stdout.hasPrefix("fine answer"))
        #expect(outcome.stderr.components(separatedBy: "noise line ").count - 1 == 16384)
    }

    /// A plugin whose entry crashes is a `crashed` rejection; the folder's other plugins serve.
    @Test func aPluginCrashingInItsEntryIsRejectedAndTheOthersServe() throws {
        let folder = try Self.folder(entryCrash: true)
        let cli = try CLIRunner(config: #"""
            {"plugins_dir": "\#(folder.path)", "primary": "local",
             "backends": {"local": {"plugin": "tandem.fake", "settings": {"reply": "still here"}}}}
            """#)
        defer { cli.cleanUp() }
        let listed = try cli.run(["backends", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let rejected = try #require(try listed.json()["rejected"] as? [[String: Any]])
        #expect(rejected.count == 1)
        #expect(rejected.first?["path"] as? String == folder.file("broken.so"))
        #expect(rejected.first?["code"] as? String == "crashed")
        let message = rejected.first?["message"] as? String ?? ""
        #expect(message.contains("was killed by signal 11 (SIGSEGV)") && message.contains("the entry goes wrong"), "\(message)")
        let answered = try cli.run(["respond", "Say something"])
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(answered.stdout.hasPrefix("still here"))
    }

    /// A model whose open_model crashes is reported as not opened, with how its process ended.
    @Test func aPluginCrashingInOpenModelIsReportedAndTheOthersServe() throws {
        let folder = try Self.folder()
        let cli = try CLIRunner(config: Self.config(folder, crash: "open", routing: #""primary": "cloud""#))
        defer { cli.cleanUp() }
        let listed = try cli.run(["backends", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let backends = try #require(try listed.json()["backends"] as? [[String: Any]])
        let local = try #require(backends.first { $0["id"] as? String == "local" })
        let error = local["error"] as? String ?? ""
        #expect(error.contains("backendCrashed") && error.contains("SIGSEGV") && error.contains("opening the model goes wrong"), "\(error)")
        let cloud = try #require(backends.first { $0["id"] as? String == "cloud" })
        #expect(cloud["isolation"] as? String == "process")
        #expect(cloud["crashes"] as? Double == 0)
        let answered = try cli.run(["respond", "Say something"])
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(answered.stdout.hasPrefix("from the cloud"))
    }

    /// Ctrl-C on a call whose plugin ignores cancellation: the child is killed after the bound
    /// and the command ends as cancelled, not hung.
    @Test func aHangingPluginIgnoringCancellationIsKilled() throws {
        let folder = try Self.folder()
        let cli = try CLIRunner(config: Self.config(folder, crash: "hang"))
        defer { cli.cleanUp() }
        let start = ContinuousClock.now
        let outcome = try cli.run(["respond", "Say something"], interruptAfter: .milliseconds(500))
        #expect(ContinuousClock.now - start < ProcessBackend.stopBound + .seconds(5))
        #expect(outcome.status == 5, "\(outcome.stderr)")
    }

    // MARK: Through the library

    /// A crash is counted, the next call starts a new child; crashes in a row back off, and
    /// while backing off the backend says it is not ready.
    @Test func aCrashedChildIsRestartedThenBackedOff() throws {
        let folder = try Self.folder()
        let host = try Self.host(folder, crash: "segfault")
        let backend = try #require(host.models["local"]?.backend as? ProcessBackend, "\(host.openFailures)")
        let request = BackendRequest(messages: [.user("hi")])
        func crashOnce() -> BackendFailure? {
            do {
                _ = try backend.generate(request, cancellation: CancellationToken()) { _ in true }
                return nil
            } catch {
                return error
            }
        }
        #expect(crashOnce()?.status == .backendCrashed)
        #expect(backend.health.crashes == 1)
        #expect(!backend.health.running)
        #expect(backend.availability(locale: nil) == .available, "a first crash restarts on the next call")
        // Crashing again proves a new child ran the call.
        let second = crashOnce()
        #expect(second?.status == .backendCrashed)
        #expect(second?.message.contains("SIGSEGV") == true)
        #expect(backend.health.crashes == 2)
        let third = crashOnce()
        #expect(third?.status == .backendCrashed)
        #expect(third?.message.contains("crashed 2 times in a row") == true, "\(third?.message ?? "")")
        #expect(third?.message.contains("backing off") == true)
        #expect(backend.health.crashes == 2, "a call refused while backing off starts no child")
        guard case .unavailable(.modelNotReady, let detail, _) = backend.availability(locale: nil) else {
            Issue.record("a backend backing off must not say it is available")
            return
        }
        #expect(detail.contains("restarting in"))
    }

    /// `tandem.log_likelihood/1` crosses to the child as generate does: the answer comes back,
    /// and a child that dies while scoring is a clear `backendCrashed` naming how it ended, counted
    /// as the backend's crash (the host lives on).
    @Test(arguments: [("segfault", "was killed by signal 11 (SIGSEGV)"),
                      ("abort", "was killed by signal 6 (SIGABRT); its last stderr line: about to abort while scoring"),
                      ("exit", "ended during log_likelihood and exited with status 0")])
    func aChildDyingWhileScoringTextIsACrashNamedForHowItEnded(_ crash: String, says: String) throws {
        let folder = try Self.folder()
        let healthy = try #require(try Self.host(folder, crash: "").models["local"]?.backend as? ProcessBackend)
        #expect(healthy.offersLogLikelihood)
        #expect(try healthy.logLikelihood(of: " b", after: "a", cancellation: CancellationToken()) == LogLikelihood(value: -1.5, tokens: 2))
        let backend = try #require(try Self.host(folder, crash: crash).models["local"]?.backend as? ProcessBackend)
        #expect {
            _ = try backend.logLikelihood(of: " b", after: "a", cancellation: CancellationToken())
        } throws: { error in
            let failure = error as? BackendFailure
            return failure?.status == .backendCrashed && failure?.message.contains(says) == true
                && failure?.message.contains("local (test.crashing): the plugin's process") == true
        }
        #expect(backend.health.crashes == 1)
    }

    /// A plugin ignoring its cancel token: its child is killed once the bound has passed, and
    /// the call fails with `backendCrashed` saying so.
    @Test func aCallIgnoringCancellationIsKilledAfterTheBound() throws {
        let folder = try Self.folder()
        let host = try Self.host(folder, crash: "hang")
        let backend = try #require(host.models["local"]?.backend as? ProcessBackend, "\(host.openFailures)")
        let token = CancellationToken()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { token.cancel() }
        let start = ContinuousClock.now
        do {
            _ = try backend.generate(BackendRequest(messages: [.user("hi")]), cancellation: token) { _ in true }
            Issue.record("a hanging call returned")
        } catch {
            #expect(error.status == .backendCrashed)
            #expect(error.message.contains("did not end generate within 3.0 s of being cancelled or stopped"), "\(error.message)")
            #expect(error.message.contains("was killed by signal 9 (SIGKILL)"), "\(error.message)")
        }
        let took = ContinuousClock.now - start
        #expect(took >= ProcessBackend.stopBound && took < ProcessBackend.stopBound + .seconds(10), "\(took)")
        #expect(backend.health.crashes == 1)
    }

    /// The host's cancellation reaches the plugin's token in the child, and the call ends as
    /// it does in-process (the shipped fake's `hang` waits on its token).
    @Test func cancellationCrossesToTheChild() throws {
        let plugin = try #require(ModelFactory.catalog.plugin(id: "tandem.fake"))
        let backend = try ProcessBackend.open(backendID: "local", plugin: plugin.identity, settings: ["hang": "true"])
        let token = CancellationToken()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { token.cancel() }
        let start = ContinuousClock.now
        do {
            _ = try backend.generate(BackendRequest(messages: [.user("hi")]), cancellation: token) { _ in true }
            Issue.record("a hanging call ended without its cancellation")
        } catch {
            #expect(error.status == .cancelled, "\(error)")
        }
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(backend.health.crashes == 0)
    }

    /// A child that answers with garbage (lengths past the limit, bad UTF-8, truncated frames,
    /// unknown kinds) is killed and reported; the host never trusts what it sent.
    @Test(arguments: [
        ("ff ff ff 7f", "a frame length of 2147483647 bytes"),
        ("06 00 00 00 1e 02 00 00 00 c3", "ends inside model id"),
        ("07 00 00 00 1e 02 00 00 00 ff fe", "model id is not valid UTF-8"),
        ("01 00 00 00 63", "unknown kind 99"),
    ])
    func garbageFromTheChildIsAClearFailure(_ bytes: String, _ says: String) throws {
        let folder = try PluginFolder()
        let script = folder.file("garbage-child")
        let octal = bytes.split(separator: " ").map { "\\" + String(Int($0, radix: 16)!, radix: 8) }.joined()
        try "#!/bin/sh\nprintf '\(octal)' >&5\nsleep 30\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o700)
        let identity = PluginIdentity(id: "test.garbage", name: "garbage", version: "0", abiVersion: PluginLoader.supportedABI.upperBound, path: "/nonexistent.so")
        let start = ContinuousClock.now
        do {
            _ = try ProcessBackend.launch(backendID: "g", plugin: identity, settings: [:], configDirectory: nil, executable: script).open()
            Issue.record("a garbage child opened")
        } catch {
            #expect(error.status == .backendCrashed)
            #expect(error.message.contains(says), "\(error.message)")
            #expect(error.message.contains("was killed by signal 9 (SIGKILL)"), "\(error.message)")
        }
        #expect(ContinuousClock.now - start < .seconds(5), "the garbage child is killed, not waited for")
    }
}
