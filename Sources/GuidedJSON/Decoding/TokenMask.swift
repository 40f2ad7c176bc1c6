/// The set of token ids allowed at one decoding step, as a bit set over the vocabulary.
/// Reuse one mask across steps (`TokenVocabulary.computeMask(_:state:into:)` overwrites it).
public struct TokenMask: Sendable, Hashable {
    public let tokenCount: Int
    var words: [UInt64]

    public init(tokenCount: Int) {
        self.tokenCount = tokenCount
        words = Array(repeating: 0, count: (tokenCount + 63) / 64)
    }

    public func contains(_ token: Int) -> Bool {
        token >= 0 && token < tokenCount && words[token >> 6] & (1 << UInt64(token & 63)) != 0
    }

    public var allowedCount: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }
    public var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// The allowed ids in increasing order.
    public var allowedTokens: [Int] {
        var result: [Int] = []
        for (index, word) in words.enumerated() {
            var rest = word
            while rest != 0 {
                result.append(index << 6 + rest.trailingZeroBitCount)
                rest &= rest - 1
            }
        }
        return result
    }

    /// Sets every disallowed logit to -infinity (the sampler then never picks those tokens).
    public func apply(to logits: UnsafeMutableBufferPointer<Float>) {
        precondition(logits.count >= tokenCount, "logits has fewer entries than the vocabulary")
        for (index, word) in words.enumerated() where word != ~0 {
            let base = index << 6
            for bit in 0..<min(64, tokenCount - base) where word & (1 << UInt64(bit)) == 0 {
                logits[base + bit] = -.infinity
            }
        }
    }

    mutating func insert(_ token: Int) {
        words[token >> 6] |= 1 << UInt64(token & 63)
    }

    mutating func clear() {
        for index in words.indices { words[index] = 0 }
    }
}
