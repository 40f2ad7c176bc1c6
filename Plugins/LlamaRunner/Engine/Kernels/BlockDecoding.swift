import CLlamaKernels

/// The 32-value block types read field by field from their layouts (`lk_blocks.h`), in plain
/// scalar code: value j of a block is d × q[j] + m. The dequantiser and the reference kernels
/// both decode through here, so each type's bits are read in one place in Swift.
enum BlockDecoding {
    @inline(__always) static func half(_ p: UnsafeRawPointer, _ offset: Int) -> Float {
        Float(Float16(bitPattern: p.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
    }

    /// Whether `type` has 32-value blocks that decode to integers with one scale and minimum.
    static func decodes(_ type: TensorType) -> Bool {
        switch type {
        case .q4_0, .q4_1, .q5_0, .q5_1, .q8_0, .iq4_nl: true
        case .f32, .f16, .bf16, .q2_K, .q3_K, .q4_K, .q5_K, .q6_K: false
        }
    }

    /// Writes the block at `p`'s 32 integer quants to `q` and returns its scale and minimum.
    static func decode(_ type: TensorType, _ p: UnsafeRawPointer, _ q: UnsafeMutablePointer<Int32>) -> (d: Float, m: Float) {
        switch type {
        case .q4_0:
            nibbles(p + Int(LK_Q4_0_QS), high: 0, offset: 8, q)
            return (half(p, Int(LK_Q4_0_D)), 0)
        case .q4_1:
            nibbles(p + Int(LK_Q4_1_QS), high: 0, offset: 0, q)
            return (half(p, Int(LK_Q4_1_D)), half(p, Int(LK_Q4_1_M)))
        case .q5_0:
            nibbles(p + Int(LK_Q5_0_QS), high: p.loadUnaligned(fromByteOffset: Int(LK_Q5_0_QH), as: UInt32.self), offset: 16, q)
            return (half(p, Int(LK_Q5_0_D)), 0)
        case .q5_1:
            nibbles(p + Int(LK_Q5_1_QS), high: p.loadUnaligned(fromByteOffset: Int(LK_Q5_1_QH), as: UInt32.self), offset: 0, q)
            return (half(p, Int(LK_Q5_1_D)), half(p, Int(LK_Q5_1_M)))
        case .q8_0:
            for j in 0..<32 { q[j] = Int32(p.load(fromByteOffset: Int(LK_Q8_0_QS) + j, as: Int8.self)) }
            return (half(p, Int(LK_Q8_0_D)), 0)
        case .iq4_nl:
            nibbles(p + Int(LK_IQ4_NL_QS), high: 0, offset: 0, q)
            for j in 0..<32 { q[j] = Int32(iq4NLTable[Int(q[j])]) }
            return (half(p, Int(LK_IQ4_NL_D)), 0)
        default:
            preconditionFailure("\(type.name) is not a 32-value integer block type")
        }
    }

    /// IQ4_NL's values by nibble (`lk_iq4_nl_table`, lk_blocks.h).
    static let iq4NLTable: [Int8] = withUnsafeBytes(of: lk_iq4_nl_table) { Array($0.bindMemory(to: Int8.self)) }

    /// The 4- and 5-bit layouts: value j < 16 is the low nibble of byte j, value j + 16 its high
    /// nibble; bit j of `high` is value j's fifth bit; `offset` is subtracted.
    @inline(__always) private static func nibbles(_ qs: UnsafeRawPointer, high: UInt32, offset: Int32, _ q: UnsafeMutablePointer<Int32>) {
        for j in 0..<16 {
            let byte = qs.load(fromByteOffset: j, as: UInt8.self)
            q[j] = (Int32(byte & 0xF) | Int32((high >> j) & 1) << 4) - offset
            q[j + 16] = (Int32(byte >> 4) | Int32((high >> (j + 16)) & 1) << 4) - offset
        }
    }
}
