import Testing
@testable import LlamaEngine

/// The batched (prompt) kernel on the K-quant superblocks against the plain reference, on random
/// superblocks, over row ranges that cut 16-row panels and token counts around its 8-token tile.
@Suite(.enabled(if: MatMul.Implementation.avx512vnni.isSupported, "the batched kernel needs AVX-512 VNNI"))
struct BatchedKQuantKernelTests {
    @Test(arguments: [TensorType.q4_K, .q6_K], [1, 2, 8, 19])
    func batchedKernelMatchesReference(_ type: TensorType, tokens: Int) {
        #expect(MatMul.usesBatchedKernel(type, tokens: tokens, .avx512vnni))
        var rng = SeededGenerator(seed: 23)
        let columns = 512, rows = 21
        let bytes = KernelTestInputs.weights(type, rows: rows, columns: columns, rng: &rng)
        let (x, xq) = KernelTestInputs.activations(tokens: tokens, columns: columns, rng: &rng)

        bytes.withUnsafeBytes { raw in
            let info = GGUFTensorInfo(name: "w", dimensions: [columns, rows], type: type, fileOffset: 0, byteCount: raw.count)
            let w = WeightMatrix(data: raw.baseAddress!, info: info)
            var actual = [Float](repeating: .nan, count: tokens * rows)
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: MatMul.scratchLength(columns: columns, tokens: tokens))
            defer { scratch.deallocate() }
            for range in [0..<5, 5..<21] {
                x.withUnsafeBufferPointer { xf in
                    actual.withUnsafeMutableBufferPointer { out in
                        MatMul.multiply(w, xq: xq, xf: xf.baseAddress!, xStride: columns, rows: range, out: out.baseAddress!,
                                        outStride: rows, scratch: scratch, implementation: .avx512vnni)
                    }
                }
            }
            for r in 0..<rows {
                for t in 0..<tokens {
                    let expected = KQuantReference.dot(type, w.row(r), xq, token: t), got = actual[t * rows + r]
                    #expect(abs(got - expected) <= 1e-4 * max(1, abs(expected)), "row \(r) token \(t): \(got) vs \(expected)")
                }
            }
        }
    }
}
