import Foundation
import CLlamaKernels
import Testing
@testable import LlamaEngine

/// The encoder's C steps (encoder_ops.h), which the pass uses wherever the C kernels run, against
/// the Swift ones it uses elsewhere (LayerNorm, GELU) and a plain double-precision attention; row
/// widths and token counts that leave partial groups of eight.
@Suite(.enabled(if: MatMul.Implementation.avx2.isSupported)) struct EncoderKernelTests {
    static func random(_ n: Int, _ rng: inout SeededGenerator, scale: Float = 3) -> [Float] {
        (0..<n).map { _ in Float(Int(rng.next() % 20001) - 10000) / 10000 * scale }
    }

    static func expectClose(_ a: [Float], _ b: [Float], tolerance: Float, _ what: String) {
        let worst = zip(a, b).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? 0
        #expect(worst <= tolerance, "\(what): largest difference \(worst)")
    }

    @Test(arguments: [40, 384])
    func layerNormWithResidualAndBiasMatchesTheSwiftOne(columns: Int) {
        var rng = SeededGenerator(seed: UInt64(columns))
        let tokens = 5
        let x = Self.random(tokens * columns, &rng), residual = Self.random(tokens * columns, &rng)
        let residualBias = Self.random(columns, &rng), weight = Self.random(columns, &rng), bias = Self.random(columns, &rng)
        var expected = x, summed = residual
        for t in 0..<tokens { for c in 0..<columns { summed[t * columns + c] += residualBias[c] } }
        for t in 0..<tokens {
            expected.withUnsafeMutableBufferPointer { e in
                VectorOps.addLayerNorm(e.baseAddress! + t * columns, summed.withUnsafeBufferPointer { $0.baseAddress! + t * columns },
                                       weight: weight, bias: bias, columns, epsilon: 1e-12)
            }
        }
        var got = x
        #expect(lk_encoder_layer_norm(&got, residual, residualBias, columns, Int32(tokens), Int32(columns), weight, bias, 1e-12) == 0)
        Self.expectClose(got, expected, tolerance: 2e-5, "with residual")

        // Without a residual (the embeddings' LayerNorm).
        var plain = x, plainExpected = x
        #expect(lk_encoder_layer_norm(&plain, nil, nil, columns, Int32(tokens), Int32(columns), weight, bias, 1e-12) == 0)
        for t in 0..<tokens {
            plainExpected.withUnsafeMutableBufferPointer { e in
                VectorOps.addLayerNorm(e.baseAddress! + t * columns, nil, weight: weight, bias: bias, columns, epsilon: 1e-12)
            }
        }
        Self.expectClose(plain, plainExpected, tolerance: 2e-5, "without residual")
    }

    @Test func biasGELUOnAColumnRangeMatchesTheSwiftOneAndLeavesTheRest() {
        var rng = SeededGenerator(seed: 7)
        let tokens = 3, columns = 50, range = 3..<45
        let x = Self.random(tokens * columns, &rng, scale: 6), bias = Self.random(columns, &rng)
        var expected = x
        for t in 0..<tokens {
            for c in range { expected[t * columns + c] += bias[c] }
            expected.withUnsafeMutableBufferPointer { VectorOps.gelu($0.baseAddress! + t * columns + range.lowerBound, range.count) }
        }
        var got = x
        #expect(lk_encoder_bias_gelu(&got, columns, Int32(tokens), Int32(range.lowerBound), Int32(range.upperBound), bias) == 0)
        Self.expectClose(got, expected, tolerance: 1e-6, "GELU")
        for t in 0..<tokens {
            for c in 0..<columns where !range.contains(c) { #expect(got[t * columns + c] == x[t * columns + c]) }
        }
    }

    @Test(arguments: [(1, 32), (7, 32), (9, 16), (28, 32), (30, 64), (5, 24)])
    func attentionMatchesAPlainOne(tokens: Int, headDim: Int) {
        var rng = SeededGenerator(seed: UInt64(tokens * 100 + headDim))
        let heads = 3, stride = heads * headDim
        let q = Self.random(tokens * stride, &rng), k = Self.random(tokens * stride, &rng), v = Self.random(tokens * stride, &rng)
        var expected = [Float](repeating: 0, count: tokens * stride)
        for t in 0..<tokens {
            for h in 0..<heads {
                let at = { (row: Int) in row * stride + h * headDim }
                var scores = (0..<tokens).map { s in
                    (0..<headDim).reduce(0.0) { $0 + Double(q[at(t) + $1]) * Double(k[at(s) + $1]) } / Double(headDim).squareRoot()
                }
                let top = scores.max()!
                scores = scores.map { exp($0 - top) }
                let total = scores.reduce(0, +)
                for c in 0..<headDim {
                    expected[at(t) + c] = Float((0..<tokens).reduce(0.0) { $0 + scores[$1] * Double(v[at($1) + c]) } / total)
                }
            }
        }
        var got = [Float](repeating: .nan, count: tokens * stride)
        var scratch = [Float](repeating: 0, count: tokens + 8)
        // In two job ranges, as two threads split them.
        let jobs = tokens * heads, half = jobs / 2
        for (lo, hi) in [(0, half), (half, jobs)] {
            #expect(lk_encoder_attention(q, k, v, &got, stride, Int32(tokens), Int32(heads), Int32(headDim), Int32(lo), Int32(hi), &scratch) == 0)
        }
        Self.expectClose(got, expected, tolerance: 1e-5, "attention, \(tokens) tokens, head size \(headDim)")
    }

    @Test func attentionRefusesHeadSizesItHasNoKernelFor() {
        var out = [Float](repeating: 0, count: 72), scratch = [Float](repeating: 0, count: 9)
        let x = [Float](repeating: 1, count: 72)
        #expect(lk_encoder_attention(x, x, x, &out, 72, 1, 1, 72, 0, 1, &scratch) == -1)
        #expect(lk_encoder_attention(x, x, x, &out, 12, 1, 1, 12, 0, 1, &scratch) == -1)
    }
}
