/// Weight × activation products, dispatched by weight type: integer kernels for the 8-bit and
/// 4-bit block types, dequantise-then-dot for the rest (K-quants, 16/32-bit floats).
public enum MatMul {
    /// The kernel family used for the integer types, chosen once at start-up.
    public enum Implementation: String, Sendable {
        case reference, simd
    }

    nonisolated(unsafe) public static var implementation: Implementation = .simd

    public static func hasIntegerKernel(_ type: TensorType) -> Bool {
        type == .q4_0 || type == .q4_1 || type == .q8_0
    }

    /// out[t * outStride + r] = row r of `w` · input token t, for r in `rows` and every token.
    /// `xq` holds the inputs quantised (integer kernels); `xf` the same inputs as floats with row
    /// stride `xStride` (other types); `scratch` holds one dequantised row (`w.columns` floats).
    public static func multiply(
        _ w: WeightMatrix, xq: QuantizedActivations, xf: UnsafePointer<Float>, xStride: Int,
        rows: Range<Int>, out: UnsafeMutablePointer<Float>, outStride: Int, scratch: UnsafeMutablePointer<Float>
    ) {
        guard !rows.isEmpty else { return }
        if hasIntegerKernel(w.type) {
            switch implementation {
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
