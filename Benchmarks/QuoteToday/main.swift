import Foundation

// `tandem quote today` in fresh processes, with an empty plugins folder: the whole command
// (start-up, config, library, one query, output), as a person would run it, first with no library
// (the bundled catalog read in memory; nothing is created), then on a library file opened
// read-only. Target (README "The quote library": `quote today` loads no plugin): under 50 ms.
// Usage: tandem-bench-quote-today [RUNS]

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

/// One `tandem` run with `command`; its wall time in milliseconds. posix_spawn and waitpid,
/// because Foundation's `Process.waitUntilExit` polls and would add its own latency to what is measured.
func tandem(_ command: [String]) -> Double {
    let arguments = [binary, "--config", folder + "/tandem.json"] + command
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
    guard status == 0 else { fail("\(command.joined(separator: " ")) exited with status \(status)") }
    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
}

/// Times `runs` runs of `quote today`, prints p50/p95/max; the p50 when it meets the target.
func measure(_ label: String) -> Double {
    let times = (0..<runs).map { _ in tandem(["quote", "today"]) }.sorted()
    func percentile(_ p: Double) -> Double { times[min(times.count - 1, Int((Double(times.count - 1) * p).rounded()))] }
    let p50 = percentile(0.5), p95 = percentile(0.95)
    print("quote today, \(label), " + String(format: "%d fresh processes, empty plugins.d: p50 %.1f ms, p95 %.1f ms, max %.1f ms (target < 50 ms)",
                                               runs, p50, p95, times.last!))
    return p50
}

let library = folder + "/lib.sqlite"
let withoutLibrary = measure("no library (served from the bundled catalog)")
if FileManager.default.fileExists(atPath: library) { fail("quote today created \(library)") }
_ = tandem(["quote", "save", "1"])  // a writer sets the library up
let withLibrary = measure("library file read-only")
for (label, p50) in [("no library", withoutLibrary), ("library file", withLibrary)] where p50 >= 50 {
    fail("\(label): " + String(format: "p50 %.1f ms is over the 50 ms target", p50))
}
