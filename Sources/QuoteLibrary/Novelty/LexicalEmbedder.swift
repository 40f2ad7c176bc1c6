/// A model-free embedder: folded words, word pairs and character trigrams hashed into a fixed
/// number of buckets, L2-normalised. It sees shared wording, not shared meaning: it catches
/// reworded copies ("the kettle sings at dawn" / "at dawn the kettle sings") but not paraphrases
/// with different words. Use it when no embedding model is configured.
public struct LexicalEmbedder: Embedder {
    public let dimensions: Int
    public var model: String { "lexical-hash-v1-\(dimensions)" }

    public init(dimensions: Int = 512) {
        precondition(dimensions > 0, "dimensions must be positive")
        self.dimensions = dimensions
    }

    public func embed(_ text: String) async throws -> [Float] { vector(text) }

    public func vector(_ text: String) -> [Float] {
        var vector = [Float](repeating: 0, count: dimensions)
        let words = QuoteText.normalizedKey(text).split(separator: " ").map(String.init)
        for word in words { vector[bucket("w:" + word)] += 1 }
        for pair in zip(words, words.dropFirst()) { vector[bucket("p:" + pair.0 + " " + pair.1)] += 1 }
        for word in words {
            let padded = Array("^" + word + "$")
            guard padded.count >= 3 else { continue }
            for start in 0...(padded.count - 3) { vector[bucket("c:" + String(padded[start..<start + 3]))] += 0.5 }
        }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? vector.map { $0 / norm } : vector
    }

    /// FNV-1a: stable across processes, so stored vectors stay comparable.
    private func bucket(_ feature: String) -> Int {
        Int(FNV1a.hash(feature) % UInt64(dimensions))
    }
}
