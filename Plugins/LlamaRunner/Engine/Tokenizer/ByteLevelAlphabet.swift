/// GPT-2's reversible byte-to-character map used by byte-level BPE vocabularies: printable
/// Latin-1 bytes stand for themselves, every other byte is shifted to U+0100 and up, so each
/// token's text is printable and every byte sequence has a spelling.
enum ByteLevelAlphabet {
    /// `scalar[b]`: the code point that spells byte `b` in token texts.
    static let scalarForByte: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 256)
        var shifted: UInt32 = 256
        for byte in 0..<256 {
            let printable = (33...126).contains(byte) || (161...172).contains(byte) || (174...255).contains(byte)
            if printable {
                table[byte] = UInt32(byte)
            } else {
                table[byte] = shifted
                shifted += 1
            }
        }
        return table
    }()

    /// The byte a code point spells, or nil when the code point is not in the alphabet.
    static func byte(for scalar: UInt32) -> UInt8? {
        if scalar < 256 {
            let byte = UInt8(scalar)
            return scalarForByte[Int(byte)] == scalar ? byte : nil
        }
        guard scalar < 256 + 68 else { return nil }
        return byteForShiftedScalar[Int(scalar - 256)]
    }

    private static let byteForShiftedScalar: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 68)
        for byte in 0..<256 where scalarForByte[byte] >= 256 {
            table[Int(scalarForByte[byte]) - 256] = UInt8(byte)
        }
        return table
    }()

    /// UTF-8 of the alphabet spelling of `bytes` (what a normal token's text looks like).
    static func spell<S: Sequence<UInt8>>(_ bytes: S, into output: inout [UInt8]) {
        for byte in bytes {
            appendUTF8(scalarForByte[Int(byte)], to: &output)
        }
    }

    /// The bytes a token text spells. Code points outside the alphabet (seen only in damaged or
    /// hand-made vocabularies) stand for their own UTF-8.
    static func bytes(spelledBy text: String) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let byte = byte(for: scalar.value) {
                output.append(byte)
            } else {
                output.append(contentsOf: String(scalar).utf8)
            }
        }
        return output
    }

    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            output.append(UInt8(scalar))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | (scalar >> 6)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | (scalar >> 12)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            output.append(UInt8(0xF0 | (scalar >> 18)))
            output.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
