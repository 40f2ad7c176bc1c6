import Foundation
import LlamaEngine

/// `bench FILE [-t THREADS] [-p 128] [-n 128] [-r RUNS] [--llama-bench PATH] [--json]`: prompt
/// processing and generation speed like llama-bench (generation from an empty cache, one token per
/// step), cold time to first token, peak RSS, and the ratio to llama.cpp's figures on this machine
/// kind; with `--llama-bench`, also the ratio to that llama-bench run interleaved with ours.
enum BenchCommand {
    /// llama.cpp (CPU build) on SmolLM2-135M-Instruct Q4_1, measured on this machine kind:
    /// threads → (pp128, tg128) tokens/s; peak RSS 135 MiB at context 512.
    static let reference: [Int: (pp: Double, tg: Double)] = [1: (180, 86), 2: (347, 138)]
    static let referenceRSS = 135.0

    static func run(_ args: inout Arguments) throws {
        let path = try args.positional("FILE")
        let threads = try args.intOption("-t", "--threads", default: LlamaModel.availableCores)
        let promptLength = try args.intOption("-p", default: 128)
        let generateLength = try args.intOption("-n", default: 128)
        let runs = try args.intOption("-r", default: 5)
        let json = args.flag("--json")
        let baseline = try args.option("--llama-bench").map { LlamaBenchBaseline(executable: $0, model: path, threads: threads) }
        try args.finish()
        guard promptLength > 0, generateLength > 0, runs > 0 else { throw UsageError(description: "-p, -n and -r must be positive") }

        // Cold start: process start → first token of a promptLength-token prompt.
        let model = try LlamaModel(path: path, threads: threads)
        let session = LlamaSession(model: model, contextLength: 512)
        let prompt = (0..<promptLength).map { Int32(($0 * 7919 + 13) % model.vocabularySize) }
        var first: Int32 = 0
        try session.evaluate(prompt) { _, logits in first = Sampler.argmax(logits) }
        let coldFirstToken = processAge()
        _ = first

        // Wall-clock rates, and the rates per CPU-second of each thread (process CPU time / threads):
        // on a shared, busy machine the second shows what the code does with the CPU it gets.
        var pp: [Double] = [], tg: [Double] = [], ppCPU: [Double] = [], tgCPU: [Double] = []
        var basePP: [Double] = [], baseTG: [Double] = []
        for _ in 0..<runs {
            if let baseline {
                let rates = try baseline.measure(prompt: promptLength, generate: generateLength)
                basePP.append(rates.pp)
                baseTG.append(rates.tg)
            }
            session.reset()
            var (t0, c0) = (now(), cpuTime())
            try session.evaluate(prompt) { _, _ in }
            pp.append(Double(promptLength) / (now() - t0))
            ppCPU.append(Double(promptLength) / ((cpuTime() - c0) / Double(threads)))
            session.reset()
            var token: Int32 = 1
            (t0, c0) = (now(), cpuTime())
            for _ in 0..<generateLength {
                try session.evaluate([token]) { _, logits in token = Sampler.argmax(logits) }
            }
            tg.append(Double(generateLength) / (now() - t0))
            tgCPU.append(Double(generateLength) / ((cpuTime() - c0) / Double(threads)))
        }
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
        let rss = peakRSSMiB()
        let ref = reference[threads]
        let baseCold = try baseline?.coldFirstToken(prompt: promptLength)
        if json {
            func stats(_ v: [Double]) -> String {
                let s = v.sorted()
                return "{\"min\": \(s.first!), \"median\": \(s[s.count / 2]), \"max\": \(s.last!)}"
            }
            print("""
                {"model_version": "\(model.modelVersion)", "threads": \(threads), "kernels": "\(MatMul.implementation.rawValue)", \
                "pp\(promptLength)": \(stats(pp)), "tg\(generateLength)": \(stats(tg)), \
                "peak_rss_mib": \(rss), "cold_first_token_s": \(coldFirstToken), \
                "ratio_pp": \(ref.map { "\(median(pp) / $0.pp)" } ?? "null"), "ratio_tg": \(ref.map { "\(median(tg) / $0.tg)" } ?? "null"), \
                "ratio_rss": \(rss / referenceRSS), "pp_per_cpu_second": \(median(ppCPU)), "tg_per_cpu_second": \(median(tgCPU)), \
                "load_average": \(load), "llama_bench": \(baseline == nil ? "null" : "{\"pp\": \(stats(basePP)), \"tg\": \(stats(baseTG)), \"cold_s\": \(baseCold!)}")}
                """)
            return
        }
        print("model \(model.modelVersion), \(threads) thread(s), kernels \(MatMul.implementation.rawValue), \(runs) runs, load average \(load)")
        print("  test       min   median      max   vs llama.cpp           per CPU-second")
        for (name, values, cpu, refValue) in [("pp\(promptLength)", pp, ppCPU, ref?.pp), ("tg\(generateLength)", tg, tgCPU, ref?.tg)] {
            let s = values.sorted()
            let ratio = refValue.map { String(format: "%.2fx of %.0f t/s", median(values) / $0, $0) } ?? "no reference for \(threads) threads"
            print("  " + name.padding(toLength: 6, withPad: " ", startingAt: 0) + String(format: " %8.1f %8.1f %8.1f   ", s.first!, median(values), s.last!)
                  + ratio.padding(toLength: 22, withPad: " ", startingAt: 0) + String(format: " %.1f t/s", median(cpu)))
        }
        print(String(format: "  peak RSS %.1f MiB (%.2fx of llama.cpp's %.0f MiB at context 512)", rss, rss / referenceRSS, referenceRSS))
        print(String(format: "  cold time to first token (process start, %d-token prompt): %.3f s", promptLength, coldFirstToken))
        if let baseCold {
            print("  llama-bench interleaved (\(runs) runs each, same threads):")
            for (name, ours, theirs) in [("pp\(promptLength)", pp, basePP), ("tg\(generateLength)", tg, baseTG)] {
                let s = theirs.sorted()
                print("  " + name.padding(toLength: 6, withPad: " ", startingAt: 0)
                      + String(format: " %8.1f %8.1f %8.1f   ours/llama.cpp %.2fx (medians)", s.first!, median(theirs), s.last!, median(ours) / median(theirs)))
            }
            print(String(format: "  llama.cpp cold (process start to exit of one %d-token prompt, no warm-up): %.3f s; ours/llama.cpp %.2fx",
                         promptLength, baseCold, coldFirstToken / baseCold))
        }
    }

    static func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    static func cpuTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    static func peakRSSMiB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    /// Seconds since this process started (from /proc: start time in clock ticks since boot).
    static func processAge() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return .nan }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // Field 22 (starttime) is the 20th after the command name.
        guard fields.count > 19, let ticks = Double(fields[19]) else { return .nan }
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9 - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
