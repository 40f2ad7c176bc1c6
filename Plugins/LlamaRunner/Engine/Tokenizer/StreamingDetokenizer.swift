/// Turns generated token ids into text deltas that always hold complete UTF-8: a token that ends
/// inside a multi-byte character keeps those bytes until the character is finished.
public struct StreamingDetokenizer: Sendable {
    private let tokenizer: Tokenizer
    private let renderSpecial: Bool
    private var pending: [UInt8] = []

    /// `renderSpecial`: whether control tokens appear as their text (off for user-facing output).
    public init(tokenizer: Tokenizer, renderSpecial: Bool = false) {
        self.tokenizer = tokenizer
        self.renderSpecial = renderSpecial
    }

    /// The text that became complete with `id` (may be empty).
    /// - Precondition: `id` is in the vocabulary.
    public mutating func append(_ id: Int32) -> String {
        pending.append(contentsOf: tokenizer.piece(id, renderSpecial: renderSpecial))
        let complete = Self.completePrefixLength(pending)
        guard complete > 0 else { return "" }
        let text = String(decoding: pending[..<complete], as: UTF8.self)
        pending.removeFirst(complete)
        return text
    }

    /// Whatever is still buffered (an unfinished character becomes U+FFFD); resets the stream.
    public mutating func finish() -> String {
        defer { pending.removeAll() }
        return String(decoding: pending, as: UTF8.self)
    }

    /// Length of the longest prefix that does not end inside a character which later bytes
    /// could still complete. Bytes that can never form a character are not held back.
    static func completePrefixLength(_ bytes: [UInt8]) -> Int {
        let count = bytes.count
        var continuation = 0
        var index = count - 1
        while index >= 0 && continuation < 3 && bytes[index] & 0xC0 == 0x80 {
            continuation += 1
            index -= 1
        }
        guard index >= 0 else { return count }
        let lead = bytes[index]
        let needed: Int
        switch lead {
        case 0xC2...0xDF: needed = 1
        case 0xE0...0xEF: needed = 2
        case 0xF0...0xF4: needed = 3
        default: return count
        }
        return continuation < needed ? index : count
    }
}
