import Testing
@testable import LlamaEngine

/// The batched (prompt) kernel on the K-quant superblocks against the plain reference, on random
/// superblocks, over row ranges that cut 16-row panels and token counts around its 8-token tile.
@Suite(.enabled(if: MatMul.Implementation.avx512vnni.isSupported, "the batched kernel needs AVX-512 VNNI"))
struct BatchedKQuantKernelTests {
    @Test(arguments: TensorType.allCases.filter { $0.blockSize == 256 }, [1, 2, 8, 19])
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

/// The K-quant reference products against the dequantiser (itself checked against the PyPI `gguf`
/// package, DequantizeTests): row · activations, each value dequantised and multiplied by its
/// activation block's d × q, summed in double. They differ by float rounding only, and by the
/// rounding of the activation sums s to half precision in Q4_K's and Q5_K's minimum terms; a
/// misread bit (a fifth bit, a scale) moves a product by a whole weight times an activation.
struct KQuantReferenceTests {
    @Test(arguments: TensorType.allCases.filter { $0.blockSize == 256 })
    func referenceMatchesTheDequantisedProduct(_ type: TensorType) {
        var rng = SeededGenerator(seed: 41)
        let columns = 512, rows = 8, tokens = 3
        let bytes = KernelTestInputs.weights(type, rows: rows, columns: columns, rng: &rng)
        let (_, xq) = KernelTestInputs.activations(tokens: tokens, columns: columns, rng: &rng)
        var row = [Float](repeating: 0, count: columns)
        bytes.withUnsafeBytes { raw in
            for r in 0..<rows {
                let w = raw.baseAddress! + r * columns / type.blockSize * type.blockBytes
                Dequantize.row(type, w, count: columns, into: &row)
                for t in 0..<tokens {
                    var expected = 0.0, magnitude = 0.0
                    for i in 0..<columns {
                        let x = Double(xq.scales[2 * (t * columns / 32 + i / 32)]) * Double(xq.qs[t * columns + i])
                        expected += Double(row[i]) * x
                        magnitude += abs(Double(row[i]) * x)
                    }
                    let actual = Double(KQuantReference.dot(type, w, xq, token: t))
                    #expect(abs(actual - expected) <= 1e-3 * max(1, magnitude), "\(type.name) row \(r) token \(t): \(actual) vs \(expected)")
                }
            }
        }
    }
}
