import CLlamaKernels

/// The tensor element types this engine can compute with (the numbers are ggml's type codes).
public enum TensorType: UInt32, Sendable, CaseIterable {
    case f32 = 0, f16 = 1, q4_0 = 2, q4_1 = 3, q5_0 = 6, q8_0 = 8, q4_K = 12, q6_K = 14, bf16 = 30

    /// Elements per block.
    public var blockSize: Int {
        switch self {
        case .f32, .f16, .bf16: 1
        case .q4_0, .q4_1, .q8_0: 32
        case .q5_0: Int(LK_Q5_0_VALUES)
        case .q4_K, .q6_K: 256
        }
    }

    /// Bytes per block.
    public var blockBytes: Int {
        switch self {
        case .f32: 4
        case .f16, .bf16: 2
        case .q4_0: 18
        case .q4_1: 20
        case .q5_0: Int(LK_Q5_0_BYTES)
        case .q8_0: 34
        case .q4_K: 144
        case .q6_K: 210
        }
    }

    public var name: String {
        switch self {
        case .f32: "F32"
        case .f16: "F16"
        case .bf16: "BF16"
        case .q4_0: "Q4_0"
        case .q4_1: "Q4_1"
        case .q5_0: "Q5_0"
        case .q8_0: "Q8_0"
        case .q4_K: "Q4_K"
        case .q6_K: "Q6_K"
        }
    }

    /// ggml's names for the type codes this engine does not support, so errors can name them.
    static func unsupportedName(_ code: UInt32) -> String {
        let names: [UInt32: String] = [
            7: "Q5_1", 9: "Q8_1", 10: "Q2_K", 11: "Q3_K", 13: "Q5_K", 15: "Q8_K",
            16: "IQ2_XXS", 17: "IQ2_XS", 18: "IQ3_XXS", 19: "IQ1_S", 20: "IQ4_NL", 21: "IQ3_S",
            22: "IQ2_S", 23: "IQ4_XS", 24: "I8", 25: "I16", 26: "I32", 27: "I64", 28: "F64",
            29: "IQ1_M", 34: "TQ1_0", 35: "TQ2_0", 39: "MXFP4",
        ]
        return names[code] ?? "type code \(code)"
    }
}
