import Foundation

// `tandem quote today` in fresh processes, with an empty plugins folder: the whole command
// (start-up, config, read-only library, one query, output), as a person would run it.
// Target (DESIGN §6 / issue 6): under 50 ms. Usage: tandem-bench-quote-today [RUNS]

let runs = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 0 : 50
guard runs >= 1 else {
    FileHandle.standardError.write(Data("usage: tandem-bench-quote-today [RUNS ≥ 1]\n".utf8))
    exit(2)
}
let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("tandem").path
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-bench-today-\(getpid())").path
defer { try? FileManager.default.removeItem(atPath: folder) }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("tandem-bench-quote-today: \(message)\n".utf8))
    exit(1)
}

do {
    try FileManager.default.createDirectory(atPath: folder + "/plugins.d", withIntermediateDirectories: true,
                                            attributes: [.posixPermissions: 0o755])
    try #"{"plugins_dir": "plugins.d", "backends": {"local": {"plugin": "tandem.fake"}}, "mode": "local-only", "store": "lib.sqlite"}"#
        .write(toFile: folder + "/tandem.json", atomically: true, encoding: .utf8)
} catch {
    fail("cannot set up \(folder): \(error)")
}

/// One `quote today` run; its wall time in milliseconds. posix_spawn and waitpid, because
/// Foundation's `Process.waitUntilExit` polls and would add its own latency to what is measured.
func today() -> Double {
    let arguments = [binary, "--config", folder + "/tandem.json", "quote", "today"]
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    let spawned = posix_spawn(&pid, binary, &actions, nil, argv, environ)
    guard spawned == 0 else { fail("cannot run \(binary): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let elapsed = ContinuousClock.now - start
    guard status == 0 else { fail("quote today exited with status \(status)") }
    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
}

_ = today()  // the library's one-time set-up (catalog import) is not what is measured
let times = (0..<runs).map { _ in today() }.sorted()
func percentile(_ p: Double) -> Double { times[min(times.count - 1, Int((Double(times.count - 1) * p).rounded()))] }
let p50 = percentile(0.5), p95 = percentile(0.95)
print(String(format: "quote today, %d fresh processes, empty plugins.d: p50 %.1f ms, p95 %.1f ms, max %.1f ms (target < 50 ms)",
             runs, p50, p95, times.last!))
if p50 >= 50 { fail(String(format: "p50 %.1f ms is over the 50 ms target", p50)) }
