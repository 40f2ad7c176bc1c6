import CLlamaKernels
import Foundation
import Testing
@testable import LlamaEngine

/// The AVX-512F element-wise kernels (`lk_activations.h`) against the Swift loops they stand in
/// for: the vector exponential against `expf`, the gated activations against `swiGLUByValue` and
/// `geGLUByValue`, the RMS norm against `rmsNormByValue`.
@Suite struct ActivationKernelTests {
    /// The kernels' exponential against `expf` over the whole range of float results, the
    /// subnormals, 0 below them and infinity above included: within 2 ulp (measured maximum: 1 ulp).
    @Test func theVectorExponentialIsWithinTwoUlpOfExpf() throws {
        try #require(MatMul.Implementation.avx512vnni.isSupported, "needs AVX-512")
        var x = (0...400_000).map { -104 + 193 * Float($0) / 400_000 }
        x += [-0.0, -Float.leastNonzeroMagnitude, -1e-30, -87.33655, -103.9, -103.98, -150, -1e30, -.infinity]
        x += [Float.leastNonzeroMagnitude, 1e-30, 88.72, 88.73, 89, 1e30, .infinity]
        var out = [Float](repeating: .nan, count: x.count)
        #expect(lk_exp(x, &out, Int32(x.count)) == 0)
        var worst: Float = 0
        for (value, e) in zip(x, out) {
            let exact = exp(value)  // expf, as VectorOps.softmax calls it
            if exact.isInfinite {
                #expect(e == exact, "e^\(value): \(e)")
                continue
            }
            let ulps = abs(e - exact) / max(exact.ulp, Float.leastNonzeroMagnitude)
            worst = max(worst, ulps)
            #expect(ulps <= 2, "e^\(value): \(e), expf \(exact)")
        }
        #expect(worst <= 2, "worst \(worst) ulp")
    }

    /// SwiGLU on gates from −120 to 120 (where e^−g overflows in the expf form) and on ±0: within
    /// 4 ulp of the expf form, or both below 1e-30.
    @Test func theVectorSwiGLUMatchesTheLoopWithExpf() throws {
        try #require(MatMul.Implementation.avx512vnni.isSupported, "needs AVX-512")
        var gate = (0...24_000).map { -120 + 240 * Float($0) / 24_000 } + [0, -0.0, 1e-30, -1e-30, 88.8, -88.8]
        let up = gate.indices.map { Float(($0 % 7) - 3) * 0.37 + 0.05 }
        var expected = gate
        VectorOps.swiGLUByValue(&expected, up, gate.count)
        #expect(lk_swiglu(&gate, up, Int32(gate.count)) == 0)
        for i in gate.indices {
            let close = abs(gate[i] - expected[i]) <= 4 * expected[i].ulp || max(abs(gate[i]), abs(expected[i])) < 1e-30
            #expect(close, "gate \(i): \(gate[i]), loop \(expected[i])")
        }
    }

    /// GeGLU on gates around and beyond ±10 (where the table gives way), on every half-precision
    /// rounding boundary near 1 and on ±0: the same bits as the table loop.
    @Test func theVectorGeGLUGivesTheTableLoopsBits() throws {
        try #require(MatMul.Implementation.avx512vnni.isSupported, "needs AVX-512")
        var gate = (0...40_000).map { -12 + 24 * Float($0) / 40_000 } + [0, -0.0, -10, 10, 1e-30, -1e30, 1e30]
        gate += (0..<2048).map { 1 + Float($0) * Float(Float16(1).ulp) / 2 }
        let up = gate.indices.map { Float(($0 % 7) - 3) * 0.37 + 0.05 }
        var expected = gate
        VectorOps.geGLUByValue(&expected, up, gate.count)
        var vector = gate
        VectorOps.geGLU(&vector, up, gate.count)
        for i in gate.indices { #expect(vector[i].bitPattern == expected[i].bitPattern, "gate \(gate[i]): \(vector[i]), loop \(expected[i])") }
    }

    /// RMS norm over widths that end mid-register and over large and tiny values: the scale at
    /// most one ulp from the loop's, so every output within 2 ulp.
    @Test(arguments: [1, 15, 16, 17, 256, 640, 769]) func theVectorRMSNormMatchesTheLoop(width: Int) throws {
        try #require(MatMul.Implementation.avx512vnni.isSupported, "needs AVX-512")
        var generator = SeededGenerator(seed: UInt64(width))
        for magnitude: Float in [1e-20, 1, 3e4] {
            let x = (0..<width).map { _ in Float.random(in: -1...1, using: &generator) * magnitude }
            let weight = (0..<width).map { _ in Float.random(in: 0.5...1.5, using: &generator) }
            var expected = [Float](repeating: 0, count: width), vector = expected
            VectorOps.rmsNormByValue(x, weight, &expected, width, epsilon: 1e-6)
            VectorOps.rmsNorm(x, weight, &vector, width, epsilon: 1e-6)
            for i in 0..<width {
                #expect(abs(vector[i] - expected[i]) <= 2 * expected[i].ulp, "width \(width), \(i): \(vector[i]), loop \(expected[i])")
            }
        }
    }
}
