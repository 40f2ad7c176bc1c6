import Testing
@testable import LlamaEngine

/// The AVX2 attention (`lk_attend`) gives the Swift code's bits: same sums in the same order.
@Suite(.enabled(if: MatMul.Implementation.avx2.isSupported, "the C attention needs AVX2"))
struct AttentionKernelTests {
    @Test(arguments: [64, 48, 40, 8])
    func intrinsicsAttentionEqualsSwiftBitForBit(headDim: Int) {
        var rng = SeededGenerator(seed: 31)
        let positions = 70, stride = headDim * 3
        func random(_ n: Int) -> [Float] { (0..<n).map { _ in Float(Int(rng.next() % 20001) - 10000) / 2500 } }
        let q = random(headDim), keys = random(positions * stride), values = random(positions * stride)
        for n in [1, 2, 17, positions] {
            func run(_ intrinsics: Bool) -> [Float] {
                var scores = [Float](repeating: 0, count: n), out = [Float](repeating: .nan, count: headDim)
                Attention.attend(query: q, keys: keys, values: values, stride: stride, count: n, headDim: headDim,
                                 scores: &scores, out: &out, intrinsics: intrinsics)
                return out
            }
            let swift = run(false), c = run(true)
            #expect(swift.allSatisfy { $0.isFinite })
            #expect(c.map(\.bitPattern) == swift.map(\.bitPattern), "head size \(headDim), \(n) positions: \(c.prefix(3)) vs \(swift.prefix(3))")
        }
    }
}
