/// Turns token byte pieces into text deltas that always hold complete UTF-8 characters: a piece
/// that ends inside a multi-byte character is held until the rest arrives.
public struct UTF8Assembler: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Adds bytes; returns the text that is now complete (possibly empty).
    public mutating func append(_ bytes: [UInt8]) -> String {
        pending.append(contentsOf: bytes)
        let cut = Self.completePrefixLength(pending)
        guard cut > 0 else { return "" }
        let text = String(decoding: pending[0..<cut], as: UTF8.self)
        pending.removeFirst(cut)
        return text
    }

    /// Whatever is left at the end (an unfinished character becomes U+FFFD).
    public mutating func finish() -> String {
        defer { pending.removeAll() }
        return pending.isEmpty ? "" : String(decoding: pending, as: UTF8.self)
    }

    /// Length of the prefix that does not end inside a multi-byte sequence.
    static func completePrefixLength(_ b: [UInt8]) -> Int {
        let n = b.count
        // Look back at most 3 bytes for the lead byte of the last sequence.
        var i = n - 1
        while i >= 0 && i >= n - 4 {
            let byte = b[i]
            if byte & 0xC0 != 0x80 {
                let need = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                // A lead byte whose sequence is still short: cut before it.
                return n - i < need && byte >= 0xC0 ? i : n
            }
            i -= 1
        }
        return n
    }
}
