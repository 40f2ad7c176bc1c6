import Testing
@testable import LlamaEngine

/// Weights packed into 16-row panels (`llama_gemm.h`) give the same products, bit for bit, as the
/// file's rows through the same implementation: the one-token kernel as lk_matmul (32-value
/// types, llama.cpp's order) or lk_gemm (K-quants), the batched kernel as lk_gemm. Random blocks,
/// row ranges that cut panels, one token and a batch over two tiles and a part.
@Suite(.enabled(if: MatMul.Implementation.avx512vnni.isSupported, "packing needs AVX-512 VNNI"))
struct PackedKernelTests {
    static let types: [TensorType] = [.q4_0, .q4_1, .q5_0, .q5_1, .q8_0, .iq4_nl, .q2_K, .q3_K, .q4_K, .q5_K, .q6_K]

    @Test(arguments: types, [1, 19])
    func packedWeightsGiveTheRowsResultsBitForBit(_ type: TensorType, tokens: Int) {
        var rng = SeededGenerator(seed: 31)
        let columns = type.blockSize == 256 ? 512 : 96, rows = 37
        let bytes = KernelTestInputs.weights(type, rows: rows, columns: columns, rng: &rng)
        let (x, xq) = KernelTestInputs.activations(tokens: tokens, columns: columns, rng: &rng)

        bytes.withUnsafeBytes { raw in
            let info = GGUFTensorInfo(name: "w", dimensions: [columns, rows], type: type, fileOffset: 0, byteCount: raw.count)
            let rowsMatrix = WeightMatrix(data: raw.baseAddress!, info: info)
            let store = WeightMatrix.PackedWeights()
            let packedMatrix = store.pack(rowsMatrix, types: Set(Self.types), implementation: .avx512vnni)
            #expect(packedMatrix.packed != nil)
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: MatMul.scratchLength(columns: columns, tokens: tokens))
            defer { scratch.deallocate() }
            func product(_ w: WeightMatrix) -> [Float] {
                var out = [Float](repeating: .nan, count: tokens * rows)
                for range in [0..<5, 5..<21, 21..<rows] {
                    x.withUnsafeBufferPointer { xf in
                        out.withUnsafeMutableBufferPointer { o in
                            MatMul.multiply(w, xq: xq, xf: xf.baseAddress!, xStride: columns, rows: range, out: o.baseAddress!,
                                            outStride: rows, scratch: scratch, implementation: .avx512vnni)
                        }
                    }
                }
                return out
            }
            let expected = product(rowsMatrix), actual = product(packedMatrix)
            #expect(!expected.contains { $0.isNaN })
            #expect(actual.map(\.bitPattern) == expected.map(\.bitPattern))
        }
    }
}
