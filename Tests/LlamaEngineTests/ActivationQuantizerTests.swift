import Testing
import CLlamaKernels
@testable import LlamaEngine

/// The activation quantiser: the C kernels against the
/// Swift code, bit for bit, and the Swift code against llama.cpp's definition worked by hand.
@Suite struct ActivationQuantizerTests {
    /// Rows with the cases that matter: all zeros, exact halves (ties), one large value, tiny
    /// values, negative maxima, and random spreads.
    static func sampleRows(tokens: Int, columns: Int) -> [Float] {
        var rng = SeededGenerator(seed: 3)
        var x = [Float](repeating: 0, count: tokens * columns)
        for i in x.indices { x[i] = Float(Int(rng.next() % 20001) - 10000) / Float(1 + rng.next() % 3000) }
        for i in 32..<64 { x[i] = 0 }
        for i in 64..<96 { x[i] = Float(i - 80) * 0.5 }  // 127/8 × k/2: many products end in .5
        x[100] = 3.0e4
        for i in 128..<160 { x[i] = Float(i - 140) * 1.0e-6 }
        x[170] = -55
        return x
    }

    @Test func intrinsicsQuantiserMatchesSwiftBitForBit() throws {
        try #require(MatMul.Implementation.avx2.isSupported, "needs AVX2")
        let tokens = 3, columns = 576, blocks = columns / 32
        let x = Self.sampleRows(tokens: tokens, columns: columns)
        let swift = QuantizedActivations(capacity: tokens * columns), c = QuantizedActivations(capacity: tokens * columns)
        x.withUnsafeBufferPointer { xp in
            for (q, intrinsics) in [(swift, false), (c, true)] {
                q.prepare(tokens: tokens, columns: columns)
                // In two block ranges, as the feed-forward threads do.
                q.quantizeBlocks(xp.baseAddress!, stride: columns, blocks: 0..<7, intrinsics: intrinsics)
                q.quantizeBlocks(xp.baseAddress!, stride: columns, blocks: 7..<blocks, intrinsics: intrinsics)
            }
        }
        for i in 0..<(tokens * columns) { #expect(swift.qs[i] == c.qs[i], "quant \(i)") }
        for i in 0..<(2 * tokens * blocks) { #expect(swift.scales[i].bitPattern == c.scales[i].bitPattern, "scale \(i): \(swift.scales[i]) vs \(c.scales[i])") }
    }

    /// One block by hand: quants round half to even; d = max|x| / 127 rounded to fp16; s from
    /// that rounded d, then rounded.
    @Test func swiftQuantiserFollowsLlamaCppDefinition() {
        var x = [Float](repeating: 0, count: 32)
        for i in 0..<32 { x[i] = Float(i) - 10.3 }
        x[5] = -127 / 4  // the largest magnitude (x[31] is 20.7)
        let q = QuantizedActivations(capacity: 32)
        x.withUnsafeBufferPointer { q.quantize($0.baseAddress!, tokens: 1, columns: 32, stride: 32) }
        let amax: Float = 127 / 4, d = Float(Float16(amax / 127))
        var sum = 0
        for i in 0..<32 {
            let expected = Int((x[i] * (127 / amax)).rounded(.toNearestOrEven))
            #expect(Int(q.qs[i]) == expected, "quant \(i)")
            sum += expected
        }
        #expect(q.scales[0] == d)
        #expect(q.scales[1] == Float(Float16(d * Float(sum))))
    }

}
