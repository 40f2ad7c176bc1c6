/// Embeddings are stored as little-endian Float32 arrays.
enum EmbeddingBlob {
    static func encode(_ vector: [Float]) -> [UInt8] {
        vector.flatMap { value -> [UInt8] in
            let bits = value.bitPattern.littleEndian
            return [UInt8(bits & 0xFF), UInt8((bits >> 8) & 0xFF), UInt8((bits >> 16) & 0xFF), UInt8(bits >> 24)]
        }
    }

    static func decode(_ bytes: [UInt8]) -> [Float] {
        stride(from: 0, to: bytes.count - bytes.count % 4, by: 4).map { offset in
            let bits = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
                | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            return Float(bitPattern: bits)
        }
    }
}
