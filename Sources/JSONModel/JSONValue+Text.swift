extension JSONValue: CustomStringConvertible {
    /// Parses one complete JSON document (RFC 8259, UTF-8). Throws `JSONParseError` with code
    /// `.syntax` and the byte offset of the first bad byte, or `.truncated` when the text ends early.
    public init(parsing text: String) throws {
        self = try JSONValue(parsing: Array(text.utf8))
    }

    public init(parsing bytes: some Collection<UInt8>) throws {
        var parser = JSONStreamParser()
        try parser.feed(bytes)
        self = try parser.finish()
    }

    /// Compact JSON text without insignificant whitespace. Non-finite numbers, which JSON cannot
    /// represent, are written as `null`.
    public var jsonText: String {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { jsonText }

    public func write(to out: inout [UInt8]) {
        switch self {
        case .null:
            out += "null".utf8
        case .bool(let value):
            out += (value ? "true" : "false").utf8
        case .integer(let value):
            out += String(value).utf8
        case .number(let value):
            if !value.isFinite {
                out += "null".utf8
            } else if value == value.rounded(), abs(value) < 1e15 {
                out += String(Int64(value)).utf8
            } else {
                out += "\(value)".utf8
            }
        case .string(let value):
            JSONValue.writeString(value, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Escapes only what JSON requires (quote, backslash, control characters); other characters
    /// stay raw UTF-8. Guided decoding writes string literals for enums in exactly this form.
    static func writeString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case 0x0A: out += #"\n"#.utf8
            case 0x0D: out += #"\r"#.utf8
            case 0x09: out += #"\t"#.utf8
            case 0x08: out += #"\b"#.utf8
            case 0x0C: out += #"\f"#.utf8
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += #"\u00"#.utf8
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
