/// The character classes the pre-tokenizer patterns ask about (`\p{L}`, `\p{N}`, `\s`, `\p{P}`),
/// as bits. `present` is set for every code point inside the chunk being split, so "no class at
/// all" means "past the chunk's end", which is how llama.cpp's splitters see chunk boundaries.
struct ScalarClass: OptionSet, Sendable {
    let rawValue: UInt8

    static let letter = ScalarClass(rawValue: 1)
    static let number = ScalarClass(rawValue: 2)
    static let whitespace = ScalarClass(rawValue: 4)
    static let punctuation = ScalarClass(rawValue: 8)
    static let present = ScalarClass(rawValue: 0x80)

    /// Classes of one code point, from the general category (and the White_Space property).
    static func of(_ value: UInt32) -> ScalarClass {
        if value < 0x10000 { return ScalarClass(rawValue: basicPlane[Int(value)]) }
        return computed(value)
    }

    /// Classes of U+0000...U+FFFF, indexed by code point (hot loops hoist this table).
    static let basicPlane: [UInt8] = (0..<0x10000).map { computed(UInt32($0)).rawValue }

    private static func computed(_ value: UInt32) -> ScalarClass {
        guard let scalar = Unicode.Scalar(value) else { return .present }
        var classes: ScalarClass = .present
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            classes.insert(.letter)
        case .decimalNumber, .letterNumber, .otherNumber:
            classes.insert(.number)
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation:
            classes.insert(.punctuation)
        default:
            break
        }
        if scalar.properties.isWhitespace { classes.insert(.whitespace) }
        return classes
    }
}
