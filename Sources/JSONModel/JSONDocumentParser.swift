/// The fast path of `JSONValue(parsing:)`: a whole document in one contiguous UTF-8 buffer, read
/// by recursive descent with a pointer, where the stream parser steps a state machine byte by
/// byte (it must, to stop and resume anywhere in a chunked document).
///
/// It accepts exactly the documents `JSONStreamParser` accepts and builds the same value, member
/// order and number kinds included. It does not explain failures: on anything it does not accept
/// it returns nil, and `JSONValue(parsing:)` runs the stream parser over the same bytes for the
/// error and its byte offset. JSONDocumentParserTests hold the two paths against each other.
struct JSONDocumentParser {
    /// Why a document left the fast path; carries nothing (the stream parser says what was wrong).
    struct Rejected: Error {}

    private var cursor: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>
    private let keepsNumberText: Bool
    /// The unescaped bytes of a string that has escapes (strings without escapes are read in place).
    private var unescaped: [UInt8] = []

    private init(_ base: UnsafePointer<UInt8>, count: Int, keepingNumberText: Bool) {
        cursor = base
        end = base + count
        keepsNumberText = keepingNumberText
    }

    /// The document in `buffer`, or nil when it is not one the stream parser would accept.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, keepingNumberText: Bool) -> JSONValue? {
        // `.none`, never `nil`: JSONValue is ExpressibleByNilLiteral, so a bare `nil` beside a
        // JSONValue would read as `.null`, a document.
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return .none }
        var parser = JSONDocumentParser(base, count: buffer.count, keepingNumberText: keepingNumberText)
        do throws(Rejected) {
            parser.skipWhitespace()
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.cursor == parser.end else { return .none }
            return .some(value)
        } catch {
            return .none
        }
    }

    private mutating func skipWhitespace() {
        while cursor < end {
            switch cursor.pointee {
            case 0x20, 0x0A, 0x0D, 0x09: cursor += 1
            default: return
            }
        }
    }

    /// `depth`: the containers open around this value (the stream parser's nesting bound).
    private mutating func value(depth: Int) throws(Rejected) -> JSONValue {
        guard cursor < end else { throw Rejected() }
        switch cursor.pointee {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""):
            cursor += 1
            return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw Rejected()
        }
    }

    private mutating func literal(_ word: StaticString) throws(Rejected) {
        let count = word.utf8CodeUnitCount
        guard end - cursor >= count else { throw Rejected() }
        for offset in 0..<count where cursor[offset] != word.utf8Start[offset] { throw Rejected() }
        cursor += count
    }

    private mutating func object(depth: Int) throws(Rejected) -> JSONValue {
        var members = JSONObject()
        if try isEmptyContainer(closedBy: UInt8(ascii: "}"), depth: depth) { return .object(members) }
        repeat {
            guard cursor < end, cursor.pointee == UInt8(ascii: "\"") else { throw Rejected() }
            cursor += 1
            let key = try string()
            skipWhitespace()
            guard cursor < end, cursor.pointee == UInt8(ascii: ":") else { throw Rejected() }
            cursor += 1
            skipWhitespace()
            guard members.appendNew(key: key, value: try value(depth: depth + 1)) else { throw Rejected() }
        } while try !isClosed(by: UInt8(ascii: "}"))
        return .object(members)
    }

    private mutating func array(depth: Int) throws(Rejected) -> JSONValue {
        var elements: [JSONValue] = []
        if try isEmptyContainer(closedBy: UInt8(ascii: "]"), depth: depth) { return .array(elements) }
        repeat {
            elements.append(try value(depth: depth + 1))
        } while try !isClosed(by: UInt8(ascii: "]"))
        return .array(elements)
    }

    /// Past the opening bracket and the whitespace after it; true when the container is empty,
    /// and then past its closing bracket as well.
    private mutating func isEmptyContainer(closedBy close: UInt8, depth: Int) throws(Rejected) -> Bool {
        guard depth < JSONStreamParser.maximumNesting else { throw Rejected() }
        cursor += 1
        skipWhitespace()
        guard cursor < end, cursor.pointee == close else { return false }
        cursor += 1
        return true
    }

    /// After a member or an element: true past the closing bracket, false past a comma and the
    /// whitespace after it.
    private mutating func isClosed(by close: UInt8) throws(Rejected) -> Bool {
        skipWhitespace()
        guard cursor < end else { throw Rejected() }
        let byte = cursor.pointee
        cursor += 1
        if byte == close { return true }
        guard byte == UInt8(ascii: ",") else { throw Rejected() }
        skipWhitespace()
        return false
    }

    /// From just after the opening quote to just after the closing one.
    private mutating func string() throws(Rejected) -> String {
        let start = cursor
        try skipPlainCharacters()
        guard cursor < end else { throw Rejected() }
        if cursor.pointee == UInt8(ascii: "\"") {
            let text = String(decoding: UnsafeBufferPointer(start: start, count: cursor - start), as: UTF8.self)
            cursor += 1
            return text
        }
        // An escape (a control character or the end is rejected below): from here through `unescaped`.
        unescaped.removeAll(keepingCapacity: true)
        unescaped.append(contentsOf: UnsafeBufferPointer(start: start, count: cursor - start))
        while true {
            guard cursor < end else { throw Rejected() }
            switch cursor.pointee {
            case UInt8(ascii: "\""):
                cursor += 1
                return String(decoding: unescaped, as: UTF8.self)
            case UInt8(ascii: "\\"):
                cursor += 1
                try unescape()
            default:
                let run = cursor
                try skipPlainCharacters()
                guard cursor > run else { throw Rejected() }  // a control character
                unescaped.append(contentsOf: UnsafeBufferPointer(start: run, count: cursor - run))
            }
        }
    }

    /// Past characters that stand for themselves (not a quote, backslash or control character),
    /// checking UTF-8 with the stream parser's validator.
    private mutating func skipPlainCharacters() throws(Rejected) {
        while cursor < end {
            let byte = cursor.pointee
            if byte < 0x80 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return }
                cursor += 1
                continue
            }
            var utf8 = UTF8Validator()
            repeat {
                guard cursor < end, utf8.accept(cursor.pointee) != .invalid else { throw Rejected() }
                cursor += 1
            } while !utf8.isAtBoundary
        }
    }

    /// One escape, the backslash already read.
    private mutating func unescape() throws(Rejected) {
        guard cursor < end else { throw Rejected() }
        let byte = cursor.pointee
        cursor += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(byte)
        case UInt8(ascii: "b"): unescaped.append(0x08)
        case UInt8(ascii: "f"): unescaped.append(0x0C)
        case UInt8(ascii: "n"): unescaped.append(0x0A)
        case UInt8(ascii: "r"): unescaped.append(0x0D)
        case UInt8(ascii: "t"): unescaped.append(0x09)
        case UInt8(ascii: "u"):
            let code = try hexQuad()
            switch code {
            case 0xD800...0xDBFF:
                guard end - cursor >= 2, cursor[0] == UInt8(ascii: "\\"), cursor[1] == UInt8(ascii: "u") else { throw Rejected() }
                cursor += 2
                let low = try hexQuad()
                guard (0xDC00...0xDFFF).contains(low) else { throw Rejected() }
                appendScalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
            case 0xDC00...0xDFFF: throw Rejected()
            default: appendScalar(code)
            }
        default: throw Rejected()
        }
    }

    private mutating func hexQuad() throws(Rejected) -> UInt32 {
        guard end - cursor >= 4 else { throw Rejected() }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = cursor.pointee
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw Rejected()
            }
            code = code << 4 | digit
            cursor += 1
        }
        return code
    }

    private mutating func appendScalar(_ code: UInt32) {
        unescaped.append(contentsOf: Unicode.Scalar(code)!.utf8)
    }

    /// RFC 8259's number grammar; what follows is the caller's to check (`01` is rejected there,
    /// as the `1` cannot follow a value).
    private mutating func number() throws(Rejected) -> JSONValue {
        let start = cursor
        let negative = cursor.pointee == UInt8(ascii: "-")
        if negative { cursor += 1 }
        guard cursor < end, isDigit(cursor.pointee) else { throw Rejected() }
        if cursor.pointee == UInt8(ascii: "0") {
            cursor += 1
        } else {
            skipDigits()
        }
        var integral = true
        if cursor < end, cursor.pointee == UInt8(ascii: ".") {
            integral = false
            cursor += 1
            guard cursor < end, isDigit(cursor.pointee) else { throw Rejected() }
            skipDigits()
        }
        if cursor < end, cursor.pointee == UInt8(ascii: "e") || cursor.pointee == UInt8(ascii: "E") {
            integral = false
            cursor += 1
            if cursor < end, cursor.pointee == UInt8(ascii: "+") || cursor.pointee == UInt8(ascii: "-") { cursor += 1 }
            guard cursor < end, isDigit(cursor.pointee) else { throw Rejected() }
            skipDigits()
        }
        let digits = UnsafeBufferPointer(start: start, count: cursor - start)
        if keepsNumberText { return .rawNumber(String(decoding: digits, as: UTF8.self)) }
        // Up to 18 digits cannot overflow Int64: summed in place, as Int64(text) would read them.
        if integral, digits.count - (negative ? 1 : 0) <= 18 {
            var magnitude: Int64 = 0
            for digit in digits[(negative ? 1 : 0)...] { magnitude = magnitude * 10 + Int64(digit - UInt8(ascii: "0")) }
            return .integer(negative ? -magnitude : magnitude)
        }
        let text = String(decoding: digits, as: UTF8.self)
        if let integer = Int64(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else { throw Rejected() }
        return .number(number)
    }

    private mutating func skipDigits() {
        while cursor < end, isDigit(cursor.pointee) { cursor += 1 }
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
