extension JSONValue: CustomStringConvertible {
    /// Parses one complete JSON document (RFC 8259, UTF-8). Throws `JSONParseError` with code
    /// `.syntax` and the byte offset of the first bad byte, or `.truncated` when the text ends early.
    /// With `keepingNumberText`, every number is read as `.rawNumber` (its exact text).
    public init(parsing text: String, keepingNumberText: Bool = false) throws(JSONParseError) {
        try self.init(parsing: text.utf8, keepingNumberText: keepingNumberText)
    }

    public init(parsing bytes: some Collection<UInt8>, keepingNumberText: Bool = false) throws(JSONParseError) {
        var parsed: Result<JSONValue, JSONParseError>?
        _ = bytes.withContiguousStorageIfAvailable { buffer in
            parsed = Result { () throws(JSONParseError) in try JSONValue(parsing: buffer, keepingNumberText: keepingNumberText) }
        }
        if parsed == nil {
            parsed = Array(bytes).withUnsafeBufferPointer { buffer in
                Result { () throws(JSONParseError) in try JSONValue(parsing: buffer, keepingNumberText: keepingNumberText) }
            }
        }
        self = try parsed!.get()
    }

    /// The whole document is here at once, so the fast path reads it (`JSONDocumentParser`); a
    /// document it does not accept goes through the stream parser, which says what is wrong and where.
    public init(parsing buffer: UnsafeBufferPointer<UInt8>, keepingNumberText: Bool = false) throws(JSONParseError) {
        if let value = JSONDocumentParser.parse(buffer, keepingNumberText: keepingNumberText) {
            self = value
            return
        }
        var parser = JSONStreamParser(keepingNumberText: keepingNumberText)
        try parser.feed(buffer: buffer)
        self = try parser.finish()
    }

    /// Compact JSON text without insignificant whitespace, object members in their order (or
    /// sorted by key, for output that must not depend on how an object was built). Non-finite
    /// numbers, which JSON cannot represent, are written as `null`.
    public func jsonText(sortingKeys: Bool) -> String {
        var bytes: [UInt8] = []
        write(to: &bytes, sortingKeys: sortingKeys)
        return String(decoding: bytes, as: UTF8.self)
    }

    public var jsonText: String { jsonText(sortingKeys: false) }

    /// `jsonText` as UTF-8 bytes.
    public var jsonBytes: [UInt8] {
        var bytes: [UInt8] = []
        write(to: &bytes, sortingKeys: false)
        return bytes
    }

    public var description: String { jsonText }

    func write(to out: inout [UInt8], sortingKeys: Bool) {
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
        case .rawNumber(let text):
            out += text.utf8
        case .string(let value):
            JSONValue.writeString(value, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out, sortingKeys: sortingKeys)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            if sortingKeys {
                for (index, member) in object.sorted(by: { $0.key < $1.key }).enumerated() {
                    JSONValue.writeMember(member, first: index == 0, to: &out, sortingKeys: true)
                }
            } else {
                for (index, member) in object.enumerated() {
                    JSONValue.writeMember(member, first: index == 0, to: &out, sortingKeys: false)
                }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeMember(_ member: JSONObject.Member, first: Bool, to out: inout [UInt8], sortingKeys: Bool) {
        if !first { out.append(UInt8(ascii: ",")) }
        writeString(member.key, to: &out)
        out.append(UInt8(ascii: ":"))
        member.value.write(to: &out, sortingKeys: sortingKeys)
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
