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
        type == .q5_0
    }

    /// Writes the block at `p`'s 32 integer quants to `q` and returns its scale and minimum.
    static func decode(_ type: TensorType, _ p: UnsafeRawPointer, _ q: UnsafeMutablePointer<Int32>) -> (d: Float, m: Float) {
        switch type {
        case .q5_0:
            let high = p.loadUnaligned(fromByteOffset: Int(LK_Q5_0_QH), as: UInt32.self)
            for j in 0..<16 {
                let byte = p.load(fromByteOffset: Int(LK_Q5_0_QS) + j, as: UInt8.self)
                q[j] = Int32(byte & 0xF | UInt8((high >> j) & 1) << 4) - 16
                q[j + 16] = Int32(byte >> 4 | UInt8((high >> (j + 16)) & 1) << 4) - 16
            }
            return (half(p, Int(LK_Q5_0_D)), 0)
        default:
            preconditionFailure("\(type.name) is not a 32-value integer block type")
        }
    }
}
