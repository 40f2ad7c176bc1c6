/// Cuts template source into text and tags, applying Jinja's whitespace rules as Hugging Face
/// and llama.cpp configure them: `-` trims whitespace on that side of a tag, `trim_blocks`
/// drops the newline after a statement or comment tag, `lstrip_blocks` drops the indentation
/// before one. Inside tags it produces tokens.
struct TemplateLexer {
    enum Segment {
        case text(String)
        case expression([TemplateToken], start: Int)
        case statement([TemplateToken], start: Int)
    }

    private let source: [UInt8]
    private var index = 0

    init(source: String) {
        self.source = Array(source.utf8)
    }

    /// 1-based line and column of a byte offset (for error messages).
    static func position(of offset: Int, in source: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in source[..<min(offset, source.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    func error(_ code: TemplateError.Code, _ message: String, at offset: Int) -> TemplateError {
        let (line, column) = Self.position(of: offset, in: source)
        return TemplateError(code, message, line: line, column: column)
    }

    private enum TagKind { case expression, statement, comment }

    private struct RawSegment {
        var text: [UInt8]?
        var kind: TagKind = .expression
        var tokens: [TemplateToken] = []
        var start = 0
        var trimBefore = false
        var trimAfter = false
        var keepIndent = false
        /// `+%}`: keep the newline trim_blocks would drop.
        var keepNewline = false
    }

    mutating func segments() throws -> [Segment] {
        var raw: [RawSegment] = []
        var textStart = 0
        while index < source.count {
            guard source[index] == UInt8(ascii: "{"), index + 1 < source.count,
                  let kind = Self.tagKind(source[index + 1]) else {
                index += 1
                continue
            }
            if index > textStart { raw.append(RawSegment(text: Array(source[textStart..<index]))) }
            var tag = RawSegment(text: nil, kind: kind, start: index)
            index += 2
            if index < source.count && source[index] == UInt8(ascii: "-") {
                tag.trimBefore = true
                index += 1
            } else if index < source.count && source[index] == UInt8(ascii: "+") {
                tag.keepIndent = true
                index += 1
            }
            switch kind {
            case .comment:
                try skipComment(&tag)
            case .expression, .statement:
                tag.tokens = try tokens(until: kind == .expression ? UInt8(ascii: "}") : UInt8(ascii: "%"), tag: &tag)
            }
            raw.append(tag)
            textStart = index
        }
        if source.count > textStart { raw.append(RawSegment(text: Array(source[textStart...]))) }
        return applyWhitespaceRules(raw)
    }

    private static func tagKind(_ byte: UInt8) -> TagKind? {
        switch byte {
        case UInt8(ascii: "{"): return .expression
        case UInt8(ascii: "%"): return .statement
        case UInt8(ascii: "#"): return .comment
        default: return nil
        }
    }

    private mutating func skipComment(_ tag: inout RawSegment) throws {
        while index + 1 < source.count {
            if source[index] == UInt8(ascii: "#") && source[index + 1] == UInt8(ascii: "}") {
                tag.trimAfter = index > 0 && source[index - 1] == UInt8(ascii: "-")
                index += 2
                return
            }
            index += 1
        }
        throw error(.syntax, "comment is not closed with #}", at: tag.start)
    }

    /// Tokens up to the closing `}}` / `%}` (with its optional `-`).
    private mutating func tokens(until closer: UInt8, tag: inout RawSegment) throws -> [TemplateToken] {
        var tokens: [TemplateToken] = []
        while true {
            while index < source.count && Self.isSpace(source[index]) { index += 1 }
            guard index < source.count else {
                throw error(.syntax, "tag is not closed with \(closer == UInt8(ascii: "}") ? "}}" : "%}")", at: tag.start)
            }
            let byte = source[index]
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+"), index + 2 < source.count,
               source[index + 1] == closer, source[index + 2] == UInt8(ascii: "}") {
                if byte == UInt8(ascii: "-") { tag.trimAfter = true } else { tag.keepNewline = true }
                index += 3
                return tokens
            }
            if byte == closer, index + 1 < source.count, source[index + 1] == UInt8(ascii: "}") {
                index += 2
                return tokens
            }
            tokens.append(try token())
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static let operators: [String] = [
        "**", "//", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "~", "<", ">", "=", "(", ")", "[", "]",
        "{", "}", ",", ".", ":", "|",
    ]

    private mutating func token() throws -> TemplateToken {
        let start = index
        let byte = source[index]
        if Self.isNameStart(byte) {
            while index < source.count && (Self.isNameStart(source[index]) || Self.isDigit(source[index])) { index += 1 }
            return TemplateToken(kind: .name(String(decoding: source[start..<index], as: UTF8.self)), offset: start)
        }
        if Self.isDigit(byte) {
            while index < source.count && Self.isDigit(source[index]) { index += 1 }
            if index + 1 < source.count && source[index] == UInt8(ascii: ".") && Self.isDigit(source[index + 1]) {
                index += 1
                while index < source.count && Self.isDigit(source[index]) { index += 1 }
                let text = String(decoding: source[start..<index], as: UTF8.self)
                return TemplateToken(kind: .float(Double(text)!), offset: start)
            }
            let text = String(decoding: source[start..<index], as: UTF8.self)
            guard let value = Int(text) else { throw error(.syntax, "integer \(text) is too large", at: start) }
            return TemplateToken(kind: .integer(value), offset: start)
        }
        if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
            return TemplateToken(kind: .string(try stringLiteral(quote: byte)), offset: start)
        }
        for op in Self.operators {
            let utf8 = Array(op.utf8)
            if index + utf8.count <= source.count && Array(source[index..<(index + utf8.count)]) == utf8 {
                index += utf8.count
                return TemplateToken(kind: .symbol(op), offset: start)
            }
        }
        throw error(.syntax, "unexpected character '\(String(decoding: [byte], as: UTF8.self))'", at: start)
    }

    /// A quoted string with Python's common escapes.
    private mutating func stringLiteral(quote: UInt8) throws -> String {
        let start = index
        index += 1
        var bytes: [UInt8] = []
        while index < source.count {
            let byte = source[index]
            if byte == quote {
                index += 1
                return String(decoding: bytes, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\"), index + 1 < source.count {
                index += 1
                switch source[index] {
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                case UInt8(ascii: "\\"): bytes.append(0x5C)
                case UInt8(ascii: "'"): bytes.append(0x27)
                case UInt8(ascii: "\""): bytes.append(0x22)
                case UInt8(ascii: "\n"): break
                default:
                    bytes.append(0x5C)
                    bytes.append(source[index])
                }
                index += 1
                continue
            }
            bytes.append(byte)
            index += 1
        }
        throw error(.syntax, "string literal is not closed", at: start)
    }

    /// Decided on the original text of each segment, so the rules of neighbouring tags do not
    /// see each other's trimming.
    private func applyWhitespaceRules(_ raw: [RawSegment]) -> [Segment] {
        var segments: [Segment] = []
        for (position, segment) in raw.enumerated() {
            guard let text = segment.text else {
                if segment.kind == .expression {
                    segments.append(.expression(segment.tokens, start: segment.start))
                } else if segment.kind == .statement {
                    segments.append(.statement(segment.tokens, start: segment.start))
                }
                continue
            }
            var start = 0
            var end = text.count
            // After the previous tag: `-` trims all whitespace; trim_blocks drops one newline.
            if position > 0 {
                let tag = raw[position - 1]
                if tag.trimAfter {
                    while start < end && Self.isSpace(text[start]) { start += 1 }
                } else if tag.kind != .expression && !tag.keepNewline {
                    if text.first == 0x0A {
                        start = 1
                    } else if text.starts(with: [0x0D, 0x0A]) {
                        start = 2
                    }
                }
            }
            // Before the next tag: `-` trims all whitespace; lstrip_blocks trims the indentation
            // of a line that holds only the tag.
            if position + 1 < raw.count {
                let tag = raw[position + 1]
                if tag.trimBefore {
                    while end > start && Self.isSpace(text[end - 1]) { end -= 1 }
                } else if tag.kind != .expression && !tag.keepIndent {
                    var cut = text.count
                    while cut > 0 && (text[cut - 1] == 0x20 || text[cut - 1] == 0x09) { cut -= 1 }
                    if cut == 0 ? position == 0 : text[cut - 1] == 0x0A { end = min(end, cut) }
                }
            }
            if start < end { segments.append(.text(String(decoding: text[start..<end], as: UTF8.self))) }
        }
        return segments
    }
}

struct TemplateToken: Equatable {
    enum Kind: Equatable {
        case name(String)
        case string(String)
        case integer(Int)
        case float(Double)
        case symbol(String)
    }

    var kind: Kind
    /// Byte offset in the source.
    var offset: Int
}
