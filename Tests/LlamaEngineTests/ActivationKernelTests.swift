import CLlamaKernels
import Foundation
import Testing
@testable import LlamaEngine

/// The AVX-512F element-wise kernels (`lk_activations.h`) against the Swift loops they stand in
/// for: the vector exponential against `expf`, and the gated activation against `swiGLUByValue`.
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
}
