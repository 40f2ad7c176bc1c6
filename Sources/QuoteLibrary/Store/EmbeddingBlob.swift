/// Embeddings are stored as little-endian float32 arrays (4 bytes a dimension: 1.5 KB for a
/// 384-dimension model), read straight into the novelty gate's contiguous matrix.
enum EmbeddingBlob {
    static func encode(_ vector: [Float]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: vector.count * 4)
        for (index, value) in vector.enumerated() {
            let bits = value.bitPattern.littleEndian
            withUnsafeBytes(of: bits) { bytes.replaceSubrange(index * 4..<index * 4 + 4, with: $0) }
        }
        return bytes
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) -> [Float] {
        var vector: [Float] = []
        append(bytes, to: &vector)
        return vector
    }

    /// Appends the floats of `bytes` (whole floats only) to `values`. No exact `reserveCapacity`
    /// here: called once a row, it would reallocate the whole matrix every row.
    static func append(_ bytes: UnsafeRawBufferPointer, to values: inout [Float]) {
        let count = bytes.count / 4
        for index in 0..<count {
            let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            values.append(Float(bitPattern: bits))
        }
    }
}
