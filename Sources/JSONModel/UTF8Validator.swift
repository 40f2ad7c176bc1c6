/// Checks UTF-8 one byte at a time (RFC 3629: no overlong forms, no surrogates, nothing above
/// U+10FFFF). Shared by the JSON parser and the guided-decoding automaton so both accept exactly
/// the same strings, including characters split across chunks or tokens. Inlinable: the token
/// mask steps it for every byte of every candidate token, from another module.
public struct UTF8Validator: Sendable, Hashable {
    public enum Step { case scalarComplete, needsMore, invalid }

    /// Continuation bytes still expected for the current character; 0 at a character boundary.
    @inlinable public var pending: UInt8 { remaining }
    @usableFromInline var remaining: UInt8 = 0
    @usableFromInline var low: UInt8 = 0x80
    @usableFromInline var high: UInt8 = 0xBF

    @inlinable public init() {}

    @inlinable public var isAtBoundary: Bool { remaining == 0 }

    /// Whether `byte` would be accepted next, without changing the state.
    @inlinable public func accepts(_ byte: UInt8) -> Bool {
        if remaining > 0 { return byte >= low && byte <= high }
        return byte < 0x80 || (byte >= 0xC2 && byte <= 0xF4)
    }

    @inlinable public mutating func accept(_ byte: UInt8) -> Step {
        if remaining > 0 {
            guard byte >= low && byte <= high else { return .invalid }
            remaining -= 1
            low = 0x80
            high = 0xBF
            return remaining == 0 ? .scalarComplete : .needsMore
        }
        switch byte {
        case 0x00...0x7F: return .scalarComplete
        case 0xC2...0xDF: remaining = 1
        case 0xE0: remaining = 2; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: remaining = 2
        case 0xED: remaining = 2; high = 0x9F
        case 0xF0: remaining = 3; low = 0x90
        case 0xF1...0xF3: remaining = 3
        case 0xF4: remaining = 3; high = 0x8F
        default: return .invalid
        }
        return .needsMore
    }
}
