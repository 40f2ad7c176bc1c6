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

/// One `quote today` run; its wall time in milliseconds.
func today() -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["--config", folder + "/tandem.json", "quote", "today"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = ContinuousClock.now
    do { try process.run() } catch { fail("cannot run \(binary): \(error)") }
    process.waitUntilExit()
    let elapsed = ContinuousClock.now - start
    guard process.terminationStatus == 0 else { fail("quote today exited with \(process.terminationStatus)") }
    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
}

_ = today()  // the library's one-time set-up (catalog import) is not what is measured
let times = (0..<runs).map { _ in today() }.sorted()
func percentile(_ p: Double) -> Double { times[min(times.count - 1, Int((Double(times.count - 1) * p).rounded()))] }
let p50 = percentile(0.5), p95 = percentile(0.95)
print(String(format: "quote today, %d fresh processes, empty plugins.d: p50 %.1f ms, p95 %.1f ms, max %.1f ms (target < 50 ms)",
             runs, p50, p95, times.last!))
if p50 >= 50 { fail(String(format: "p50 %.1f ms is over the 50 ms target", p50)) }
