import Testing
import CLlamaKernels
@testable import LlamaEngine

/// The f16 KV cache's arithmetic: the F16C kernels against the plain Swift reference, bit for
/// bit, on lengths with and without a tail, and the reference against Swift's own Float16; the
/// cache stores what the reference rounds.
@Suite struct HalfVectorOpsTests {
    /// Values of several magnitudes and signs, exact ties between halves, and the edges of the
    /// half range (overflow to infinity, subnormals, underflow to zero).
    static func sample(_ n: Int, seed: UInt64) -> [Float] {
        var rng = SeededGenerator(seed: seed)
        var x = (0..<n).map { _ in Float(Int(rng.next() % 20001) - 10000) / Float(1 + rng.next() % 3000) }
        let edges: [Float] = [65519, 65520, -70000, 6.0e-8, 3.0e-8, -2.9e-8, 1 + 1.0 / 2048, 1 + 3.0 / 2048, 0, -0.0]
        for (i, e) in edges.enumerated() where i < n { x[i] = e }
        return x
    }

    static func halves(_ x: [Float]) -> [UInt16] { x.map { Float16($0).bitPattern } }

    @Test func referenceStoresWhatFloat16Rounds() {
        let x = Self.sample(203, seed: 1)
        var out = [UInt16](repeating: 0, count: x.count)
        HalfVectorOps.Reference.store(x, &out, x.count)
        for i in x.indices {
            #expect(out[i] == Float16(x[i]).bitPattern, "value \(x[i])")
            #expect(HalfVectorOps.Reference.float(out[i]).bitPattern == Float(Float16(x[i])).bitPattern, "value \(x[i])")
        }
    }

    @Test(arguments: [7, 64, 203, 256])
    func intrinsicsMatchTheReferenceBitForBit(_ n: Int) throws {
        try #require(MatMul.Implementation.avx2.isSupported, "needs AVX2 and F16C")
        let x = Self.sample(n, seed: 2).map { $0 / 64 }, y = Self.halves(Self.sample(n, seed: 3).map { $0 / 64 })

        var c = [UInt16](repeating: 0, count: n), r = [UInt16](repeating: 0, count: n)
        let xs = Self.sample(n, seed: 4)
        #expect(lk_float_to_half(xs, &c, n) == 0)
        HalfVectorOps.Reference.store(xs, &r, n)
        #expect(c == r)

        #expect(lk_dot_half(x, y, n).bitPattern == HalfVectorOps.Reference.dot(x, y, n).bitPattern)

        var cy = x, ry = x
        lk_axpy_half(0.37, y, &cy, n)
        HalfVectorOps.Reference.axpy(0.37, y, &ry, n)
        #expect(cy.map(\.bitPattern) == ry.map(\.bitPattern))
    }

    /// The one-call attention against the per-position loop it replaces, whose `expf` and ordered
    /// sum it replaces by sixteen lanes (so within a few ulp, not bit for bit): head dims of Gemma 3
    /// (256) and SmolLM2 (64), one position, and a ring that wraps (positions past the last cell
    /// continue at cell 0), runs of sixteen positions (the kernel sums their scores together) with
    /// a ring that wraps inside one. Head dims that are not whole 16-lane groups are refused.
    @Test(arguments: [(64, 1, 0, 8), (64, 37, 5, 40), (256, 23, 17, 24), (48, 64, 60, 64), (16, 9, 0, 9),
                      (64, 16, 7, 16), (64, 200, 150, 256)])
    func attentionInOneCallMatchesThePerPositionLoop(_ headDim: Int, _ n: Int, _ first: Int, _ cells: Int) throws {
        try #require(MatMul.Implementation.avx512vnni.isSupported, "needs AVX-512")
        let stride = headDim * 2 + 16, offset = headDim + 8
        let q = Self.sample(headDim, seed: 7).map { $0 / 256 }
        let keys = Self.halves(Self.sample(cells * stride, seed: 8).map { $0 / 64 })
        let values = Self.halves(Self.sample(cells * stride, seed: 9).map { $0 / 64 })
        var scores = [Float](repeating: 0, count: n), out = [Float](repeating: .nan, count: headDim)
        var expectedScores = scores, expected = out
        let rc = keys.withUnsafeBufferPointer { k in values.withUnsafeBufferPointer { v in
            lk_attend_half(q, k.baseAddress! + offset, v.baseAddress! + offset, stride, Int32(cells), Int32(first), Int32(n),
                           Int32(headDim), 0.125, &scores, &out)
        } }
        #expect(rc == 0)
        keys.withUnsafeBufferPointer { k in values.withUnsafeBufferPointer { v in
            HalfVectorOps.attendByPosition(q, keys: k.baseAddress! + offset, values: v.baseAddress! + offset, stride: stride,
                                           cells: cells, first: first, n: n, headDim: headDim, scale: 0.125,
                                           scores: &expectedScores, out: &expected)
        } }
        for j in 0..<n {
            #expect(abs(scores[j] - expectedScores[j]) <= 2e-6 * expectedScores[j], "weight \(j): \(scores[j]) \(expectedScores[j])")
        }
        // Each output is a weighted mean of |values| ≤ 1/64: its error is bounded by the weights'.
        for i in 0..<headDim { #expect(abs(out[i] - expected[i]) <= 2e-6 / 64, "output \(i): \(out[i]) \(expected[i])") }
        #expect(abs(expectedScores.reduce(0, +) - 1) < 1e-5, "softmax weights sum to 1")
    }

    @Test func attentionInOneCallRefusesPartialLaneGroups() throws {
        try #require(MatMul.Implementation.avx512vnni.isSupported, "needs AVX-512")
        let q = [Float](repeating: 1, count: 40), cache = [UInt16](repeating: 0x3C00, count: 40 * 4)
        var scores = [Float](repeating: 0, count: 4), out = [Float](repeating: 7, count: 40)
        #expect(lk_attend_half(q, cache, cache, 40, 4, 0, 4, 40, 1, &scores, &out) == -1)
        #expect(out.allSatisfy { $0 == 7 }, "nothing written")
    }

    @Test func theCacheStoresKeysAndValuesAsHalves() {
        let kvDim = 24, k = Self.sample(kvDim, seed: 5), v = Self.sample(kvDim, seed: 6)
        let cache = KVCache(layers: 2, contextLength: 8, kvDim: kvDim, window: nil, sliding: [false, false], batch: 4)
        cache.store(layer: 1, position: 3, key: k, value: v)
        let keys = cache.key(layer: 1, position: 3), values = cache.value(layer: 1, position: 3)
        for i in 0..<kvDim {
            #expect(keys[i] == Float16(k[i]).bitPattern, "key \(i)")
            #expect(values[i] == Float16(v[i]).bitPattern, "value \(i)")
        }
    }
}
