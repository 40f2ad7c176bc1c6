import Foundation
import LlamaFuzz
#if canImport(Glibc)
import Glibc
#endif

/// `fuzz`: the structured model-file fuzzer (`ModelFuzzer`) run for a case count or a time box,
/// whichever ends first. The cases run in worker processes (this tool, `fuzz --worker`), so a
/// case that traps or hangs is counted with its seed and its worker restarted after it, and the
/// run goes on. Each worker publishes the seed it is on and its counts in a shared page; a case
/// that runs longer than `--hang-ms` is a hang (its worker is killed).
///
///     fuzz [--cases N] [--seconds S] [--jobs J] [--seed FIRST] [--forward-every K] [--hang-ms MS]
///     fuzz --replay SEED [--forward]      one case: its mutations and outcome
enum FuzzCommand {
    /// One worker's shared counters, 8 words: the seed it is on, cases done, loaded, forward
    /// passes, refused, and whether it has started (a hang is timed from then).
    struct Slot {
        static let words = 8
        let base: UnsafeMutablePointer<UInt64>
        var currentSeed: UInt64 { get { base[0] } nonmutating set { base[0] = newValue } }
        var done: UInt64 { get { base[1] } nonmutating set { base[1] = newValue } }
        var loaded: UInt64 { get { base[2] } nonmutating set { base[2] = newValue } }
        var forwarded: UInt64 { get { base[3] } nonmutating set { base[3] = newValue } }
        var refused: UInt64 { get { base[4] } nonmutating set { base[4] = newValue } }
        var started: UInt64 { get { base[5] } nonmutating set { base[5] = newValue } }
    }

    static func run(_ args: inout Arguments) throws {
        if let replay = try args.option("--replay") {
            let forward = args.flag("--forward")
            try args.finish()
            guard let seed = UInt64(replay) else { throw UsageError(description: "--replay needs a seed, got \(replay)") }
            let fuzzCase = ModelFuzzer().makeCase(seed: seed)
            print("seed \(seed): \(fuzzCase.bytes.count) bytes; mutations: \(fuzzCase.mutations.joined(separator: "; "))")
            print(ModelFuzzer.run(fuzzCase.bytes, forward: forward))
            return
        }
        if let slotFile = try args.option("--worker") {
            let slot = try args.intOption("--slot", default: 0)
            let from = try args.intOption("--from", default: 1)
            let step = try args.intOption("--step", default: 1)
            let forwardEvery = try args.intOption("--forward-every", default: 16)
            try args.finish()
            try worker(slotFile: slotFile, slot: slot, from: UInt64(from), step: UInt64(step), forwardEvery: UInt64(forwardEvery))
            return
        }
        let cases = try args.intOption("--cases", default: 1_000_000)
        let seconds = try args.intOption("--seconds", default: 600)
        let jobs = try args.intOption("--jobs", "-j", default: 2)
        let first = try args.intOption("--seed", default: 1)
        let forwardEvery = try args.intOption("--forward-every", default: 16)
        let hangMilliseconds = try args.intOption("--hang-ms", default: 5000)
        try args.finish()
        guard cases >= 1, seconds >= 1, jobs >= 1, first >= 0, forwardEvery >= 1, hangMilliseconds >= 10 else {
            throw UsageError(description: "--cases, --seconds, --jobs, --forward-every must be at least 1, --seed at least 0, --hang-ms at least 10")
        }
        let failures = try supervise(cases: cases, seconds: seconds, jobs: jobs, first: UInt64(first),
                                     forwardEvery: forwardEvery, hangMilliseconds: hangMilliseconds)
        if failures > 0 { exit(1) }
    }

    /// Maps `count` slots of the shared page file at `path`.
    static func mapSlots(_ path: String, count: Int, create: Bool) throws -> UnsafeMutablePointer<UInt64> {
        let fd = open(path, create ? (O_RDWR | O_CREAT | O_TRUNC) : O_RDWR, 0o600)
        guard fd >= 0 else { throw UsageError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = count * Slot.words * 8
        if create { guard ftruncate(fd, off_t(bytes)) == 0 else { throw UsageError(description: "cannot size \(path)") } }
        guard let p = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), p != MAP_FAILED else {
            throw UsageError(description: "cannot map \(path): \(String(cString: strerror(errno)))")
        }
        return p.bindMemory(to: UInt64.self, capacity: count * Slot.words)
    }

    /// Runs seeds from, from + step, ... until killed, publishing progress in its slot.
    static func worker(slotFile: String, slot index: Int, from: UInt64, step: UInt64, forwardEvery: UInt64) throws {
        let slot = Slot(base: try mapSlots(slotFile, count: index + 1, create: false) + index * Slot.words)
        let fuzzer = ModelFuzzer()
        var seed = from
        slot.started = 1
        while true {
            slot.currentSeed = seed
            switch fuzzer.run(seed: seed, forwardEvery: forwardEvery) {
            case .loaded(let forward):
                slot.loaded += 1
                if forward { slot.forwarded += 1 }
            case .refused(_, let message):
                // An empty message is a failure as real as a trap: the caller could not say why.
                if message.isEmpty { FileHandle.standardError.write(Data("seed \(seed): refused without a message\n".utf8)); exit(3) }
                slot.refused += 1
            }
            slot.done += 1
            seed += step
        }
    }

    private final class Worker {
        let index: Int
        var process: Process?
        var errorLog: String
        /// Counts of this worker's earlier processes (a restarted process counts from zero).
        var done: UInt64 = 0, loaded: UInt64 = 0, forwarded: UInt64 = 0, refused: UInt64 = 0
        var lastSeed: UInt64 = 0, lastDone: UInt64 = 0
        var lastChange = ContinuousClock.now
        init(index: Int, errorLog: String) { self.index = index; self.errorLog = errorLog }
    }

    /// Starts `jobs` workers and watches them; returns the number of crashes and hangs.
    static func supervise(cases: Int, seconds: Int, jobs: Int, first: UInt64, forwardEvery: Int, hangMilliseconds: Int) throws -> Int {
        let folder = NSTemporaryDirectory() + "tandem-llama-fuzz-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let slotFile = folder + "/slots"
        let slots = try mapSlots(slotFile, count: jobs, create: true)
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let workers = (0..<jobs).map { Worker(index: $0, errorLog: folder + "/worker-\($0).stderr") }
        var failures: [String] = []

        func start(_ w: Worker, from seed: UInt64) throws {
            let slot = Slot(base: slots + w.index * Slot.words)
            for i in 0..<Slot.words { slot.base[i] = 0 }
            slot.currentSeed = seed
            _ = FileManager.default.createFile(atPath: w.errorLog, contents: nil)
            let p = Process()
            p.executableURL = executable
            p.arguments = ["fuzz", "--worker", slotFile, "--slot", "\(w.index)", "--from", "\(seed)", "--step", "\(jobs)",
                           "--forward-every", "\(forwardEvery)"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle(forWritingAtPath: w.errorLog)
            try p.run()
            w.process = p
            w.lastSeed = seed
            w.lastDone = 0
            w.lastChange = .now
        }
        /// Folds a finished process's counts into the worker's.
        func retire(_ w: Worker) {
            let slot = Slot(base: slots + w.index * Slot.words)
            w.done += slot.done; w.loaded += slot.loaded; w.forwarded += slot.forwarded; w.refused += slot.refused
            for i in 1..<Slot.words { slot.base[i] = 0 }
        }
        /// The worker's fatal-error line (Swift's runtime writes a backtrace after it), else its
        /// last line.
        func crashLine(_ path: String) -> String {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            return (lines.first { $0.contains("Fatal error") || $0.contains("Crash") } ?? lines.last).map(String.init) ?? "(no stderr)"
        }
        func total() -> (done: UInt64, loaded: UInt64, forwarded: UInt64, refused: UInt64) {
            workers.reduce((0, 0, 0, 0)) { sum, w in
                let s = Slot(base: slots + w.index * Slot.words)
                return (sum.0 + w.done + s.done, sum.1 + w.loaded + s.loaded, sum.2 + w.forwarded + s.forwarded, sum.3 + w.refused + s.refused)
            }
        }

        for (j, w) in workers.enumerated() { try start(w, from: first + UInt64(j)) }
        let started = ContinuousClock.now
        var lastReport = started
        var crashes = 0, hangs = 0
        while total().done < UInt64(cases) && ContinuousClock.now - started < .seconds(seconds) {
            usleep(20_000)
            for w in workers {
                guard let p = w.process else { continue }
                let slot = Slot(base: slots + w.index * Slot.words)
                let seed = slot.currentSeed
                if !p.isRunning {
                    retire(w)
                    crashes += 1
                    let how = p.terminationReason == .uncaughtSignal ? "signal \(p.terminationStatus)" : "exit status \(p.terminationStatus)"
                    failures.append("crash: seed \(seed) (\(how)): \(crashLine(w.errorLog)); replay: tandem-llama fuzz --replay \(seed)")
                    try start(w, from: seed + UInt64(jobs))
                    continue
                }
                if slot.started == 0 || seed != w.lastSeed || slot.done != w.lastDone {
                    w.lastSeed = seed
                    w.lastDone = slot.done
                    w.lastChange = .now
                } else if ContinuousClock.now - w.lastChange > .milliseconds(hangMilliseconds) {
                    kill(p.processIdentifier, SIGKILL)
                    p.waitUntilExit()
                    retire(w)
                    hangs += 1
                    failures.append("hang: seed \(seed) ran over \(hangMilliseconds) ms; replay: tandem-llama fuzz --replay \(seed)")
                    try start(w, from: seed + UInt64(jobs))
                }
            }
            if ContinuousClock.now - lastReport > .seconds(10) {
                lastReport = .now
                let t = total(), elapsed = elapsedSeconds(since: started)
                FileHandle.standardError.write(Data(String(format: "fuzz: %llu cases, %.0f cases/s, crashes=%d hangs=%d\n", t.done, Double(t.done) / elapsed, crashes, hangs).utf8))
            }
        }
        for w in workers {
            if let p = w.process, p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
        }
        let t = total(), elapsed = elapsedSeconds(since: started)
        print(String(format: "fuzz: %llu cases in %.1f s, %.0f cases/s (%d workers), seeds from %llu: loaded %llu (forward pass %llu), refused with a message %llu; crashes=%d hangs=%d",
                     t.done, elapsed, Double(t.done) / elapsed, jobs, first, t.loaded, t.forwarded, t.refused, crashes, hangs))
        for failure in failures { print("  " + failure) }
        return crashes + hangs
    }

    static func elapsedSeconds(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
