import Testing
@testable import LlamaEngine

@Suite struct SamplingTests {
    static func randomLogits(_ n: Int, seed: UInt64) -> [Float] {
        var rng = SeededGenerator(seed: seed)
        // Coarse values so ties occur and the tie-break is exercised.
        return (0..<n).map { _ in Float(Int(rng.next() % 400)) / 40 - 5 }
    }

    @Test(arguments: [1, 5, 40, 1000, 0])
    func candidateRankingMatchesAFullSort(topK: Int) {
        for seed in 0..<20 as Range<UInt64> {
            let logits = Self.randomLogits(5000, seed: seed)
            var ids = [Int32](repeating: -1, count: logits.count)
            let count = logits.withUnsafeBufferPointer { l in ids.withUnsafeMutableBufferPointer { Sampler.rankCandidates(l, topK: topK, into: $0) } }
            #expect(Array(ids[0..<count]) == Sampler.referenceCandidates(logits, topK: topK))
        }
    }

    @Test func nanLogitsRankLast() {
        var logits = Self.randomLogits(300, seed: 3)
        logits[7] = .nan
        logits[100] = .nan
        var ids = [Int32](repeating: -1, count: logits.count)
        let count = logits.withUnsafeBufferPointer { l in ids.withUnsafeMutableBufferPointer { Sampler.rankCandidates(l, topK: 0, into: $0) } }
        #expect(Array(ids[0..<count]) == Sampler.referenceCandidates(logits, topK: 0))
        #expect(Set(ids.suffix(2)) == [7, 100])
    }

    @Test func greedyAndTopK1TakeTheArgmax() {
        let logits = Self.randomLogits(1000, seed: 9)
        let best = Int32(logits.indices.max { logits[$0] < logits[$1] || (logits[$0] == logits[$1] && $0 > $1) }!)
        for options in [SamplingOptions.greedy, SamplingOptions(temperature: 1.5, topK: 1, topP: 1, seed: 4)] {
            var sampler = Sampler(options: options, vocabularySize: logits.count)
            #expect(logits.withUnsafeBufferPointer { sampler.sample($0) } == best)
        }
    }

    @Test func sameSeedSameDrawsDifferentSeedDifferentDraws() {
        let logits = Self.randomLogits(1000, seed: 1).map { $0 / 4 }
        func draws(_ seed: UInt64) -> [Int32] {
            var sampler = Sampler(options: SamplingOptions(temperature: 1, topK: 0, topP: 1, seed: seed), vocabularySize: logits.count)
            return (0..<50).map { _ in logits.withUnsafeBufferPointer { sampler.sample($0) } }
        }
        #expect(draws(42) == draws(42))
        #expect(draws(42) != draws(43))
    }

    @Test func topKAndTopPRestrictTheDraws() {
        // Probabilities about 0.64, 0.24, 0.09, 0.03 at temperature 1.
        let logits: [Float] = [3, 2, 1, 0]
        var topK2 = Sampler(options: SamplingOptions(temperature: 1, topK: 2, topP: 1, seed: 1), vocabularySize: 4)
        var topP = Sampler(options: SamplingOptions(temperature: 1, topK: 0, topP: 0.8, seed: 1), vocabularySize: 4)
        var free = Sampler(options: SamplingOptions(temperature: 1, topK: 0, topP: 1, seed: 1), vocabularySize: 4)
        var counts = [Int](repeating: 0, count: 4)
        for _ in 0..<4000 {
            #expect(logits.withUnsafeBufferPointer { topK2.sample($0) } < 2)
            #expect(logits.withUnsafeBufferPointer { topP.sample($0) } < 2)
            counts[Int(logits.withUnsafeBufferPointer { free.sample($0) })] += 1
        }
        // The free draw follows the softmax (0.644, 0.237, 0.087, 0.032) within sampling noise.
        #expect(abs(Double(counts[0]) / 4000 - 0.644) < 0.03)
        #expect(abs(Double(counts[3]) / 4000 - 0.032) < 0.015)
    }

    @Test func rejectsBadOptions() {
        #expect(throws: LlamaError.self) { try SamplingOptions(temperature: -1).validate() }
        #expect(throws: LlamaError.self) { try SamplingOptions(topP: 0).validate() }
        #expect(throws: LlamaError.self) { try SamplingOptions(topK: -2).validate() }
    }
}

@Suite struct StreamingTextTests {
    @Test func multiByteCharactersSplitAcrossPiecesComeOutWhole() {
        let text = "a€😀é中"
        let bytes = Array(text.utf8)
        // Every way of cutting the bytes into two pieces, and one byte at a time.
        for cut in 0...bytes.count {
            var a = UTF8Assembler()
            let out = a.append(Array(bytes[..<cut])) + a.append(Array(bytes[cut...])) + a.finish()
            #expect(out == text)
        }
        var a = UTF8Assembler()
        var deltas: [String] = []
        for b in bytes { deltas.append(a.append([b])) }
        #expect(deltas.joined() == text)
        #expect(!deltas.joined().contains("\u{FFFD}"))
        #expect(deltas.filter { !$0.isEmpty }.count == text.count)
    }

    @Test func anUnfinishedCharacterAtTheEndBecomesAReplacement() {
        var a = UTF8Assembler()
        #expect(a.append([0x61, 0xE2, 0x82]) == "a")
        #expect(a.finish() == "\u{FFFD}")
    }

    @Test func stopSequencesAreHeldBackAndCut() {
        var f = StopSequenceFilter(sequences: ["<END>", "\n\n"])
        #expect(f.append("Hello <") == (release: "Hello ", stopped: false))
        #expect(f.append("E") == (release: "", stopped: false))
        #expect(f.append("x") == (release: "<Ex", stopped: false))
        #expect(f.append(" world\n") == (release: " world", stopped: false))
        #expect(f.append("\nmore") == (release: "", stopped: true))
        var g = StopSequenceFilter(sequences: ["<END>"])
        #expect(g.append("ab<EN") == (release: "ab", stopped: false))
        #expect(g.finish() == "<EN")
        var h = StopSequenceFilter(sequences: ["stop"])
        #expect(h.append("one stop two") == (release: "one ", stopped: true))
    }
}
