@testable import LlamaEngine

/// The kernel tests' inputs: a matrix of random blocks whose half-float fields (scales,
/// minimums) are finite and small, and random activations quantised as the engine does.
enum KernelTestInputs {
    /// `rows` rows of `columns` values of `type`: any bits, then finite half floats in its fields.
    static func weights(_ type: TensorType, rows: Int, columns: Int, rng: inout SeededGenerator) -> [UInt8] {
        let blocks = rows * columns / type.blockSize
        var bytes = [UInt8](repeating: 0, count: blocks * type.blockBytes)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
        for b in 0..<blocks {
            for o in type.halfFields {
                let h = Float16(Float(Int(rng.next() % 2001) - 1000) / 20000).bitPattern
                bytes[b * type.blockBytes + o] = UInt8(h & 0xFF)
                bytes[b * type.blockBytes + o + 1] = UInt8(h >> 8)
            }
        }
        return bytes
    }

    /// `tokens` rows of `columns` random floats in ±3.3, and the same quantised.
    static func activations(tokens: Int, columns: Int, rng: inout SeededGenerator) -> ([Float], QuantizedActivations) {
        var x = [Float](repeating: 0, count: tokens * columns)
        for i in x.indices { x[i] = Float(Int(rng.next() % 20001) - 10000) / 3000 }
        let xq = QuantizedActivations(capacity: tokens * columns)
        x.withUnsafeBufferPointer { xq.quantize($0.baseAddress!, tokens: tokens, columns: columns, stride: columns) }
        return (x, xq)
    }
}
