import CLlamaKernels

/// The tensor element types this engine can compute with (the numbers are ggml's type codes).
public enum TensorType: UInt32, Sendable, CaseIterable {
    case f32 = 0, f16 = 1, q4_0 = 2, q4_1 = 3, q5_0 = 6, q5_1 = 7, q8_0 = 8, q2_K = 10, q3_K = 11, q4_K = 12, q5_K = 13, q6_K = 14, iq4_nl = 20, bf16 = 30

    /// Elements per block.
    public var blockSize: Int {
        switch self {
        case .f32, .f16, .bf16: 1
        case .q4_0: Int(LK_Q4_0_VALUES)
        case .q4_1: Int(LK_Q4_1_VALUES)
        case .q5_0: Int(LK_Q5_0_VALUES)
        case .q5_1: Int(LK_Q5_1_VALUES)
        case .q8_0: Int(LK_Q8_0_VALUES)
        case .iq4_nl: Int(LK_IQ4_NL_VALUES)
        case .q2_K, .q3_K, .q4_K, .q5_K, .q6_K: Int(LK_QK_K)
        }
    }

    /// Bytes per block: the block structs of `lk_blocks.h` (CLlamaKernels), the one description
    /// of each layout.
    public var blockBytes: Int {
        switch self {
        case .f32: MemoryLayout<Float>.size
        case .f16, .bf16: MemoryLayout<UInt16>.size
        case .q4_0: Int(LK_Q4_0_BYTES)
        case .q4_1: Int(LK_Q4_1_BYTES)
        case .q5_0: Int(LK_Q5_0_BYTES)
        case .q5_1: Int(LK_Q5_1_BYTES)
        case .q8_0: Int(LK_Q8_0_BYTES)
        case .iq4_nl: Int(LK_IQ4_NL_BYTES)
        case .q2_K: Int(LK_Q2_K_BYTES)
        case .q3_K: Int(LK_Q3_K_BYTES)
        case .q4_K: Int(LK_Q4_K_BYTES)
        case .q5_K: Int(LK_Q5_K_BYTES)
        case .q6_K: Int(LK_Q6_K_BYTES)
        }
    }

    /// Byte offsets of a block's half-float fields (scales and minimums): the fields a synthetic
    /// block must fill with finite values.
    public var halfFields: [Int] {
        switch self {
        case .f32, .bf16: []
        case .f16: [0]
        case .q4_0: [Int(LK_Q4_0_D)]
        case .q4_1: [Int(LK_Q4_1_D), Int(LK_Q4_1_M)]
        case .q5_0: [Int(LK_Q5_0_D)]
        case .q5_1: [Int(LK_Q5_1_D), Int(LK_Q5_1_M)]
        case .q8_0: [Int(LK_Q8_0_D)]
        case .iq4_nl: [Int(LK_IQ4_NL_D)]
        case .q2_K: [Int(LK_Q2_K_D), Int(LK_Q2_K_DMIN)]
        case .q3_K: [Int(LK_Q3_K_D)]
        case .q4_K: [Int(LK_Q4_K_D), Int(LK_Q4_K_DMIN)]
        case .q5_K: [Int(LK_Q5_K_D), Int(LK_Q5_K_DMIN)]
        case .q6_K: [Int(LK_Q6_K_D)]
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
        case .q5_1: "Q5_1"
        case .q8_0: "Q8_0"
        case .iq4_nl: "IQ4_NL"
        case .q2_K: "Q2_K"
        case .q3_K: "Q3_K"
        case .q4_K: "Q4_K"
        case .q5_K: "Q5_K"
        case .q6_K: "Q6_K"
        }
    }

    /// ggml's names for the type codes this engine does not support, so errors can name them.
    static func unsupportedName(_ code: UInt32) -> String {
        let names: [UInt32: String] = [
            9: "Q8_1", 15: "Q8_K",
            16: "IQ2_XXS", 17: "IQ2_XS", 18: "IQ3_XXS", 19: "IQ1_S", 21: "IQ3_S",
            22: "IQ2_S", 23: "IQ4_XS", 24: "I8", 25: "I16", 26: "I32", 27: "I64", 28: "F64",
            29: "IQ1_M", 34: "TQ1_0", 35: "TQ2_0", 39: "MXFP4",
        ]
        return names[code] ?? "type code \(code)"
    }
}
