import CLlamaKernels
import Testing
@testable import LlamaEngine

/// The K-quant row kernels (`kernels_x86.h`, what a CPU without AVX-512 VNNI runs for Q2_K…Q6_K,
/// prompts and single tokens alike) against the plain reference, and bit for bit against the
/// AVX-512 panel kernel where the CPU has it: both sum each block exactly in integers and add the
/// blocks in the same float order (`llama_kernels.h`). Both instantiations run: the AVX2 one
/// through `MatMul` (`maddubs`), the AVX-512 VNNI one (`vpdpbusd` on 256 bits) through
/// `lk_matmul`. Random superblocks, row ranges that cut the kernels' row pairs, token counts that
/// cut their token pairs.
@Suite(.enabled(if: MatMul.Implementation.avx2.isSupported, "the row kernels need AVX2"))
struct KQuantRowKernelTests {
    @Test(arguments: TensorType.allCases.filter { $0.blockSize == 256 }, [1, 2, 5])
    func rowKernelsMatchTheReferenceAndThePanels(_ type: TensorType, tokens: Int) {
        #expect(MatMul.hasKQuantKernel(type, .avx2) && !MatMul.usesBatchedKernel(type, tokens: tokens, .avx2))
        var rng = SeededGenerator(seed: 43)
        let columns = 768, rows = 21
        let bytes = KernelTestInputs.weights(type, rows: rows, columns: columns, rng: &rng)
        let (x, xq) = KernelTestInputs.activations(tokens: tokens, columns: columns, rng: &rng)

        bytes.withUnsafeBytes { raw in
            let info = GGUFTensorInfo(name: "w", dimensions: [columns, rows], type: type, fileOffset: 0, byteCount: raw.count)
            let w = WeightMatrix(data: raw.baseAddress!, info: info)
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: MatMul.scratchLength(columns: columns, tokens: tokens))
            defer { scratch.deallocate() }
            let ranges = [0..<5, 5..<6, 6..<rows]
            func viaMatMul(_ implementation: MatMul.Implementation) -> [Float] {
                var out = [Float](repeating: .nan, count: tokens * rows)
                for range in ranges {
                    x.withUnsafeBufferPointer { xf in
                        out.withUnsafeMutableBufferPointer { o in
                            MatMul.multiply(w, xq: xq, xf: xf.baseAddress!, xStride: columns, rows: range, out: o.baseAddress!,
                                            outStride: rows, scratch: scratch, implementation: implementation)
                        }
                    }
                }
                return out
            }
            func viaRowKernel(features: Int32) -> [Float] {
                var out = [Float](repeating: .nan, count: tokens * rows)
                var a = lk_activations(qs: xq.qs, scales: xq.scales, tokens: Int32(tokens), columns: Int32(columns))
                for range in ranges {
                    let rc = lk_matmul(Int32(type.rawValue), features, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), w.rowBytes,
                                       Int32(range.lowerBound), Int32(range.upperBound), &a, &out, rows)
                    #expect(rc == 0)
                }
                return out
            }
            var results = [("avx2", viaMatMul(.avx2))]
            if MatMul.Implementation.avx512vnni.isSupported {
                results.append(("avx512vnni rows", viaRowKernel(features: MatMul.Implementation.avx512vnni.kernelFeatures)))
            }
            for (name, actual) in results {
                for r in 0..<rows {
                    for t in 0..<tokens {
                        let expected = KQuantReference.dot(type, w.row(r), xq, token: t), got = actual[t * rows + r]
                        #expect(abs(got - expected) <= 1e-4 * max(1, abs(expected)), "\(name) row \(r) token \(t): \(got) vs \(expected)")
                    }
                }
            }
            if MatMul.Implementation.avx512vnni.isSupported {
                let panels = viaMatMul(.avx512vnni)
                for (name, actual) in results {
                    #expect(actual.map(\.bitPattern) == panels.map(\.bitPattern), "\(name) differs from the panel kernel")
                }
            }
        }
    }

    /// Rows that are not whole superblocks are refused, with nothing written.
    @Test func partialSuperblocksAreRefused() {
        var out = [Float](repeating: .nan, count: 1)
        let qs = [Int8](repeating: 1, count: 288), scales = [Float](repeating: 1, count: 18), weights = [UInt8](repeating: 0, count: 256)
        let rc = qs.withUnsafeBufferPointer { q in
            scales.withUnsafeBufferPointer { s in
                var a = lk_activations(qs: q.baseAddress!, scales: s.baseAddress!, tokens: 1, columns: 288)
                return lk_matmul(Int32(TensorType.q4_K.rawValue), MatMul.Implementation.avx2.kernelFeatures, weights, 144, 0, 1, &a, &out, 1)
            }
        }
        #expect(rc == -1)
        #expect(out[0].isNaN)
    }
}
