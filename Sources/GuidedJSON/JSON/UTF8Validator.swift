/// Checks UTF-8 one byte at a time (RFC 3629: no overlong forms, no surrogates, nothing above
/// U+10FFFF). Shared by the JSON parser and the guided-decoding automaton so both accept exactly
/// the same strings, including characters split across chunks or tokens.
struct UTF8Validator: Sendable, Hashable {
    enum Step { case scalarComplete, needsMore, invalid }

    /// Continuation bytes still expected for the current character; 0 at a character boundary.
    private(set) var pending: UInt8 = 0
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF

    var isAtBoundary: Bool { pending == 0 }

    /// Whether `byte` would be accepted next, without changing the state.
    func accepts(_ byte: UInt8) -> Bool {
        if pending > 0 { return byte >= low && byte <= high }
        return byte < 0x80 || (byte >= 0xC2 && byte <= 0xF4)
    }

    mutating func accept(_ byte: UInt8) -> Step {
        if pending > 0 {
            guard byte >= low && byte <= high else { return .invalid }
            pending -= 1
            low = 0x80
            high = 0xBF
            return pending == 0 ? .scalarComplete : .needsMore
        }
        switch byte {
        case 0x00...0x7F: return .scalarComplete
        case 0xC2...0xDF: pending = 1
        case 0xE0: pending = 2; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: pending = 2
        case 0xED: pending = 2; high = 0x9F
        case 0xF0: pending = 3; low = 0x90
        case 0xF1...0xF3: pending = 3
        case 0xF4: pending = 3; high = 0x8F
        default: return .invalid
        }
        return .needsMore
    }
}
