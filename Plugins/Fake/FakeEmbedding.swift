/// Deterministic embeddings from hashed character trigrams: each trigram of the lower-cased,
/// boundary-marked text adds ±1 to one of `dimensions` buckets (FNV-1a picks the bucket and the
/// sign), then the vector is L2-normalised. Texts sharing many trigrams get a high cosine
/// similarity, which is what near-duplicate checks need from a fake.
enum FakeEmbedding {
    /// The fake's tokens for per-token states: the lower-cased space-separated words, each with an
    /// id hashed from it (FNV-1a, 31 bits), so equal words share an id.
    static func tokens(_ text: String) -> [(word: String, id: Int32)] {
        text.lowercased().split(whereSeparator: \.isWhitespace).map { word in
            var hash: UInt32 = 0x811c_9dc5
            for byte in word.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
            return (String(word), Int32(bitPattern: hash & 0x7fff_ffff))
        }
    }

    static func vector(_ text: String, dimensions: Int) -> [Float] {
        var vector = [Float](repeating: 0, count: dimensions)
        // Two start markers and one end marker: even the empty text has one trigram.
        let scalars: [UInt32] = [2, 2] + text.lowercased().unicodeScalars.map(\.value) + [3]
        for start in 0...(scalars.count - 3) {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for scalar in scalars[start..<(start + 3)] {
                for shift in stride(from: 0, to: 32, by: 8) {
                    hash ^= UInt64((scalar >> UInt32(shift)) & 0xFF)
                    hash &*= 0x0000_0100_0000_01B3
                }
            }
            let bucket = Int(hash % UInt64(dimensions))
            vector[bucket] += (hash >> 63) == 0 ? 1 : -1
        }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard norm > 0 else {
            // All trigrams cancelled out: fall back to a fixed unit vector rather than zeros.
            vector[0] = 1
            return vector
        }
        return vector.map { $0 / norm }
    }
}
