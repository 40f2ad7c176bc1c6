import Foundation
import CLlamaKernels

/// Weight × activation products, dispatched by weight type: integer kernels for the 32-value
/// block types and (with the C kernels) the K-quants, dequantise-then-dot for the rest (16/32-bit
/// floats, and the K-quants in the Swift implementations).
public enum MatMul {
    /// The kernel family used for the integer types, chosen once at start-up.
    public enum Implementation: String, Sendable, CaseIterable {
        /// Plain scalar Swift, straight from the block layouts (the yardstick for the others).
        case reference
        /// Swift SIMD types: portable.
        case simd
        /// C intrinsics (CLlamaKernels) for AVX2, and AVX-512 VNNI.
        case avx2, avx512vnni

        var kernelFeatures: Int32 {
            switch self {
            case .avx2: Int32(LK_AVX2)
            case .avx512vnni: Int32(LK_AVX2 | LK_AVX512VNNI)
            case .reference, .simd: 0
            }
        }

        public var isSupported: Bool { kernelFeatures & lk_cpu_features() == kernelFeatures }

        /// Whether the C kernels also quantise activations and round the KV cache to fp16 (the
        /// Swift code does otherwise, with the same results).
        public var usesIntrinsics: Bool { kernelFeatures != 0 }

        /// The fastest this CPU supports.
        public static var best: Implementation {
            [.avx512vnni, .avx2].first { $0.isSupported } ?? .simd
        }
    }

    /// Chosen once at start-up: the best the CPU supports, or `TANDEM_LLAMA_KERNELS` (reference,
    /// simd, avx2, avx512vnni) when set to one it supports.
    nonisolated(unsafe) public static var implementation: Implementation = {
        if let name = ProcessInfo.processInfo.environment["TANDEM_LLAMA_KERNELS"],
           let chosen = Implementation(rawValue: name), chosen.isSupported { return chosen }
        return .best
    }()

    /// The 32-value integer block types (`BlockDecoding`) are exactly the ones with integer
    /// kernels in every implementation.
    public static func hasIntegerKernel(_ type: TensorType) -> Bool {
        BlockDecoding.decodes(type)
    }

    /// The K-quants (256-value superblocks), which have integer kernels in C only: the AVX-512
    /// VNNI panels (`llama_gemm.h`) and the row kernels of `kernels_x86.h` (AVX2, and AVX-512 VNNI
    /// for tests), both in the panels' summation order.
    public static func hasKQuantKernel(_ type: TensorType, _ implementation: Implementation) -> Bool {
        implementation.usesIntrinsics && type.blockSize == 256
    }

    /// Floats of per-thread scratch `multiply` needs for rows of `columns` values and batches of
    /// up to `tokens` tokens: one dequantised row, or the batched kernel's weight panel.
    public static func scratchLength(columns: Int, tokens: Int) -> Int {
        max(columns, (max(lk_gemm_scratch_bytes(Int32(columns), Int32(tokens)), lk_gemv_scratch_bytes(Int32(columns))) + 3) / 4)
    }

    /// Whether a batch of `tokens` tokens on `type` takes the batched (prompt) kernel, which sums
    /// each block exactly in integers and adds blocks in float (`llama_gemm.h`): AVX-512 VNNI, a
    /// type it covers, and several tokens, or one token of a K-quant (the row kernels give the same
    /// bits for them). Other single tokens keep the llama.cpp-ordered kernel.
    static func usesBatchedKernel(_ type: TensorType, tokens: Int, _ implementation: Implementation) -> Bool {
        implementation == .avx512vnni && lk_gemm_supports(Int32(type.rawValue)) != 0 && (tokens > 1 || !hasIntegerKernel(type))
    }

    /// out[t * outStride + r] = row r of `w` · input token t, for r in `rows` and every token.
    /// `xq` holds the inputs quantised (integer kernels); `xf` the same inputs as floats with row
    /// stride `xStride` (other types); `scratch` is the calling thread's own
    /// (`scratchLength(columns: w.columns, tokens: xq.tokens)` floats).
    public static func multiply(
        _ w: WeightMatrix, xq: QuantizedActivations, xf: UnsafePointer<Float>, xStride: Int,
        rows: Range<Int>, out: UnsafeMutablePointer<Float>, outStride: Int, scratch: UnsafeMutablePointer<Float>,
        implementation: Implementation = MatMul.implementation
    ) {
        guard !rows.isEmpty else { return }
        if implementation == .avx512vnni, let packed = w.packed?.assumingMemoryBound(to: UInt8.self),
           xq.tokens == 1 || lk_gemm_supports(Int32(w.type.rawValue)) != 0 {
            var x = lk_activations(qs: xq.qs, scales: xq.scales, tokens: Int32(xq.tokens), columns: Int32(xq.columns))
            let type = Int32(w.type.rawValue), lo = Int32(rows.lowerBound), hi = Int32(rows.upperBound)
            let rc = xq.tokens == 1
                ? lk_gemv_packed(type, packed, lo, hi, &x, out, scratch, 4 * scratchLength(columns: w.columns, tokens: 1))
                : lk_gemm_packed(type, packed, lo, hi, &x, xq.batchedTiles(for: type), out, outStride, scratch,
                                 4 * scratchLength(columns: w.columns, tokens: xq.tokens))
            precondition(rc == 0, "packed kernel refused \(w.type.name)")
            return
        }
        if usesBatchedKernel(w.type, tokens: xq.tokens, implementation) {
            var x = lk_activations(qs: xq.qs, scales: xq.scales, tokens: Int32(xq.tokens), columns: Int32(xq.columns))
            let rc = lk_gemm(Int32(w.type.rawValue), w.data.assumingMemoryBound(to: UInt8.self), w.rowBytes,
                             Int32(rows.lowerBound), Int32(rows.upperBound), &x, out, outStride,
                             scratch, 4 * scratchLength(columns: w.columns, tokens: xq.tokens))
            precondition(rc == 0, "batched kernel refused \(w.type.name)")
            return
        }
        if hasIntegerKernel(w.type) || hasKQuantKernel(w.type, implementation) {
            switch implementation {
            case .avx2, .avx512vnni:
                var x = lk_activations(qs: xq.qs, scales: xq.scales, tokens: Int32(xq.tokens), columns: Int32(xq.columns))
                let rc = lk_matmul(Int32(w.type.rawValue), implementation.kernelFeatures, w.data.assumingMemoryBound(to: UInt8.self),
                                   w.rowBytes, Int32(rows.lowerBound), Int32(rows.upperBound), &x, out, outStride)
                precondition(rc == 0, "intrinsics kernel refused \(w.type.name)")
            case .simd: SIMDKernels.multiply(w, xq, rows: rows, out: out, outStride: outStride)
            case .reference:
                for r in rows {
                    for t in 0..<xq.tokens { out[t * outStride + r] = ReferenceKernels.dot(w.type, w.row(r), xq, token: t) }
                }
            }
            return
        }
        for r in rows {
            Dequantize.row(w.type, w.row(r), count: w.columns, into: scratch)
            for t in 0..<xq.tokens {
                out[t * outStride + r] = VectorOps.dot(scratch, xf + t * xStride, w.columns)
            }
        }
    }
}
