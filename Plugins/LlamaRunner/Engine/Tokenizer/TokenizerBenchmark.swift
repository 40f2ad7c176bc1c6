import Foundation

/// Tokenizer throughput on mixed text, for `make bench` (through the companion tool) and the
/// opt-in benchmark test. Not a pass/fail check: it reports figures.
public enum TokenizerBenchmark {
    public struct Figures: Sendable, CustomStringConvertible {
        public var textBytes: Int
        public var tokens: Int
        public var runs: Int
        /// Encode throughput in MB/s (10^6 bytes): minimum, median, maximum over the runs.
        public var encodeMBps: (min: Double, median: Double, max: Double)
        /// Encode throughput per second of this thread's CPU time (median): stable on a busy
        /// machine, where wall-clock figures mostly measure the other processes.
        public var encodeCPUMBps: Double
        /// Decode throughput per CPU second: minimum, median, maximum.
        public var decodeCPUMBps: (min: Double, median: Double, max: Double)
        /// The BPE merge loop alone over every chunk of the text, per CPU second: optimised and
        /// plain reference, best of three (nil for SentencePiece).
        public var mergeMBps: (optimised: Double, reference: Double)?
        /// The same on long words (2,000 letters without spaces), where the heap pays.
        public var longWordMergeMBps: (optimised: Double, reference: Double)?

        public var description: String {
            func triple(_ t: (min: Double, median: Double, max: Double)) -> String {
                String(format: "%.2f / %.2f / %.2f", t.min, t.median, t.max)
            }
            var lines = [
                "tokenizer: \(textBytes) bytes of mixed text -> \(tokens) tokens, \(runs) runs",
                "  encode MB/s (min / median / max): \(triple(encodeMBps))"
                    + String(format: "; per CPU second (median): %.2f", encodeCPUMBps),
                "  decode MB per CPU second (min / median / max): \(triple(decodeCPUMBps))",
            ]
            for (label, figures) in [("mixed text", mergeMBps), ("long words", longWordMergeMBps)] {
                guard let figures else { continue }
                lines.append(String(format: "  BPE merge loop, %@, MB per CPU second: optimised %.2f, reference %.2f (%.1fx)",
                                    label, figures.optimised, figures.reference, figures.optimised / figures.reference))
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Measures `tokenizer` on `text` (default: `mixedText(bytes: 300_000)`).
    public static func run(tokenizer: Tokenizer, text: String? = nil, runs: Int = 5) -> Figures {
        let text = text ?? mixedText(bytes: 300_000)
        let bytes = text.utf8.count
        var ids: [Int32] = []
        var encodeRates: [Double] = []
        var encodeCPURates: [Double] = []
        var decodeRates: [Double] = []
        for _ in 0..<max(runs, 1) {
            let start = DispatchTime.now()
            let cpuStart = threadCPUSeconds()
            ids = tokenizer.encode(text, addSpecial: false, parseSpecial: true)
            encodeCPURates.append(cpuRate(bytes, since: cpuStart))
            encodeRates.append(rate(bytes, since: start))
            let decodeStart = threadCPUSeconds()
            _ = try? tokenizer.decodeBytes(ids)
            decodeRates.append(cpuRate(bytes, since: decodeStart))
        }
        return Figures(textBytes: bytes, tokens: ids.count, runs: max(runs, 1), encodeMBps: summary(encodeRates),
                       encodeCPUMBps: summary(encodeCPURates).median, decodeCPUMBps: summary(decodeRates), mergeMBps: tokenizer.mergeLoopThroughput(text),
                       longWordMergeMBps: tokenizer.mergeLoopThroughput(longWords(count: 30, length: 2_000)))
    }

    static func cpuRate(_ bytes: Int, since start: Double) -> Double {
        Double(bytes) / 1e6 / max(threadCPUSeconds() - start, 1e-9)
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func rate(_ bytes: Int, since start: DispatchTime) -> Double {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return Double(bytes) / 1e6 / max(seconds, 1e-9)
    }

    private static func summary(_ rates: [Double]) -> (min: Double, median: Double, max: Double) {
        let sorted = rates.sorted()
        return (sorted.first!, sorted[sorted.count / 2], sorted.last!)
    }

    /// Space-separated words of random lowercase letters.
    static func longWords(count: Int, length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return (0..<count).map { _ in String((0..<length).map { _ in letters.randomElement(using: &generator)! }) }
            .joined(separator: " ")
    }

    /// Deterministic mixed text: English prose, accented European words, Cyrillic, CJK,
    /// emoji, numbers, code, and irregular whitespace, about `bytes` long.
    public static func mixedText(bytes: Int, seed: UInt64 = 1) -> String {
        let pools: [[String]] = [
            ["the", "quick", "model", "reads", "tokens", "while", "language", "sequence", "between", "letters",
             "internationalization", "of", "and", "a", "to", "is", "we'd", "they're", "IT'S", "don't"],
            ["Grüße", "für", "Straße", "café", "déjà", "élève", "niño", "acción", "perché", "coração"],
            ["привет", "мир", "язык", "модель", "текст"],
            ["東京", "中文", "字符", "日本語", "한국어", "テキスト"],
            ["😀", "👩‍👩‍👧", "🇫🇷", "✨", "e\u{301}"],
            ["1969", "3.14159", "2025-12-31", "07:45", "$42", "100%", "#000123"],
            ["func f(x: Int) -> Int {", "return x * 2;", "}", "if (a != b) { a++; }", "print(\"hi\")", "<div>", "</div>"],
            ["  ", "\n", "\n\n", "\t", "   ", "\r\n"],
        ]
        var generator = SeededGenerator(seed: seed)
        func next() -> Int { Int(truncatingIfNeeded: generator.next() >> 1) }
        // Weighted towards prose, as real prompts are.
        let weights = [0, 0, 0, 0, 0, 1, 1, 2, 3, 4, 5, 5, 6, 7, 7]
        var text = ""
        var count = 0
        while count < bytes {
            let pool = pools[weights[next() % weights.count]]
            let word = pool[next() % pool.count]
            let piece = (pool == pools[7] ? "" : " ") + word
            text += piece
            count += piece.utf8.count
        }
        return text
    }
}

extension Tokenizer {
    /// The BPE merge loop alone over every chunk of `text`, optimised then reference (MB/s).
    func mergeLoopThroughput(_ text: String) -> (optimised: Double, reference: Double)? {
        guard case .bytePair(let encoder) = encoder else { return nil }
        var chunks: [[Int32]] = []
        var utf8 = Array(text.utf8)
        utf8.withUnsafeMutableBufferPointer { buffer in
            let bytes = UnsafeBufferPointer(buffer)
            for case .text(let range) in specialTokenFragments(bytes) {
                encoder.forEachChunk(UnsafeBufferPointer(rebasing: bytes[range])) { chunks.append(encoder.initialSymbols($0)) }
            }
        }
        let bytes = text.utf8.count
        var scratch = BytePairMerger.Scratch()
        var optimised = 0.0
        var reference = 0.0
        for _ in 0..<3 {
            let referenceStart = TokenizerBenchmark.threadCPUSeconds()
            for chunk in chunks { _ = encoder.merger.mergeReference(chunk) }
            reference = max(reference, TokenizerBenchmark.cpuRate(bytes, since: referenceStart))
            let start = TokenizerBenchmark.threadCPUSeconds()
            for chunk in chunks {
                var symbols = chunk
                encoder.merger.merge(&symbols, scratch: &scratch)
            }
            optimised = max(optimised, TokenizerBenchmark.cpuRate(bytes, since: start))
        }
        return (optimised, reference)
    }
}
