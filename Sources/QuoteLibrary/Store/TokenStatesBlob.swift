/// A quote's per-token encoder states (`TokenStates`) as stored in `quote_token_states`: the ids
/// as little-endian int32, and each token's state as its scale (little-endian float32, the
/// largest magnitude / 127) followed by one int8 a dimension. 8 bits hold what the token
/// alignment reads (unit-normalised dot products of centred states) to well within its
/// calibration's resolution (`TokenStatesBlobTests`), at a quarter of float32's size: ~10 KB for a
/// 25-token quote of a 384-dimension model.
enum TokenStatesBlob {
    static func encodeIDs(_ ids: [Int32]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ids.count * 4)
        for id in ids { withUnsafeBytes(of: id.littleEndian) { bytes.append(contentsOf: $0) } }
        return bytes
    }

    static func encodeStates(_ states: [[Float]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(states.reduce(0) { $0 + 4 + $1.count })
        for state in states {
            let largest = state.reduce(Float(0)) { max($0, abs($1)) }
            let scale = largest / 127
            withUnsafeBytes(of: scale.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            for value in state {
                let level = scale > 0 ? (value / scale).rounded() : 0
                bytes.append(UInt8(bitPattern: Int8(max(-127, min(127, level)))))
            }
        }
        return bytes
    }

    /// The states back, or nil when the blobs do not hold `tokens` tokens of `dimensions` values.
    static func decode(ids: UnsafeRawBufferPointer, states: UnsafeRawBufferPointer, tokens: Int,
                       dimensions: Int) -> TokenStates? {
        guard tokens >= 0, dimensions > 0, ids.count == tokens * 4, states.count == tokens * (4 + dimensions) else { return nil }
        var decodedIDs: [Int32] = []
        var decodedStates: [[Float]] = []
        decodedIDs.reserveCapacity(tokens)
        decodedStates.reserveCapacity(tokens)
        for token in 0..<tokens {
            decodedIDs.append(Int32(littleEndian: ids.loadUnaligned(fromByteOffset: token * 4, as: Int32.self)))
            let start = token * (4 + dimensions)
            let scale = Float(bitPattern: UInt32(littleEndian: states.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
            guard scale.isFinite else { return nil }
            decodedStates.append((0..<dimensions).map { Float(Int8(bitPattern: states[start + 4 + $0])) * scale })
        }
        return TokenStates(ids: decodedIDs, states: decodedStates)
    }
}
