/// A push parser for one JSON document (RFC 8259, UTF-8), fed bytes in chunks of any size.
///
/// It backs both the strict parser (`JSONValue(parsing:)`: feed everything, then `finish()`) and
/// streaming snapshots (`snapshot()` after each chunk shows the partially generated document).
/// Errors carry the byte offset of the first byte that cannot continue a valid document.
public struct JSONStreamParser: Sendable {
    /// Deeper documents are rejected; guards memory against hostile input.
    public static let maximumNesting = 512

    private enum Container: Sendable {
        case array([JSONValue])
        case object(JSONObject, key: String?)
    }

    private enum NumberPhase: Sendable {
        case minus, zero, integer, dot, fraction, exponentMark, exponentSign, exponent
        var canEnd: Bool { self == .zero || self == .integer || self == .fraction || self == .exponent }
    }

    private enum Escape: Sendable {
        case none, backslash
        case hex(count: Int, value: UInt32, high: UInt32?)
        case lowSurrogateBackslash(high: UInt32)
        case lowSurrogateU(high: UInt32)
    }

    private enum Mode: Sendable {
        case value, arrayFirst, objectFirst, objectKey, colon, afterValue, done
        case string(isKey: Bool)
        case number(NumberPhase)
        case literal(text: [UInt8], matched: Int, value: JSONValue)
    }

    /// Bytes consumed so far.
    public private(set) var byteOffset = 0
    private var stack: [Container] = []
    private var mode: Mode = .value
    private var root: JSONValue?
    private var text: [UInt8] = []  // the current string (unescaped UTF-8) or number literal
    private var escape: Escape = .none
    private var utf8 = UTF8Validator()

    public init() {}

    /// True once a whole document has been read (only whitespace may follow).
    public var isComplete: Bool {
        if case .done = mode { true } else { false }
    }

    public mutating func feed(_ chunk: String) throws {
        try feed(Array(chunk.utf8))
    }

    public mutating func feed(_ bytes: some Collection<UInt8>) throws {
        for byte in bytes {
            try consume(byte)
            byteOffset += 1
        }
    }

    /// The whole document; throws `.truncated` if the input stopped before it was complete.
    public mutating func finish() throws -> JSONValue {
        if case .number(let phase) = mode, phase.canEnd, stack.isEmpty {
            try completeNumber()
        }
        guard case .done = mode, let root else {
            throw JSONParseError(.truncated, "the document ends before it is complete", byteOffset: byteOffset)
        }
        return root
    }

    /// The document as generated so far: containers with every member and element complete so
    /// far, plus the string currently being written (cut at the last whole character). Numbers and
    /// literals appear only once complete.
    public func snapshot() -> JSONSnapshot {
        if case .done = mode { return JSONSnapshot(value: root, isComplete: true, activePath: nil) }
        var partial: JSONValue? = nil
        if case .string(isKey: false) = mode {
            partial = .string(String(decoding: text.dropLast(Int(utf8.pending)), as: UTF8.self))
        }
        for container in stack.reversed() {
            switch container {
            case .array(var elements):
                if let partial { elements.append(partial) }
                partial = .array(elements)
            case .object(var object, let key):
                if let key, let partial { object[key] = partial }
                partial = .object(object)
            }
        }
        var components: [JSONPath.Component] = []
        for container in stack {
            switch container {
            case .array(let elements): components.append(.index(elements.count))
            case .object(_, let key): if let key { components.append(.key(key)) }
            }
        }
        return JSONSnapshot(value: partial, isComplete: false, activePath: stack.isEmpty ? nil : JSONPath(components))
    }

    private func error(_ message: String) -> JSONParseError {
        JSONParseError(.syntax, message, byteOffset: byteOffset)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func consume(_ byte: UInt8) throws {
        switch mode {
        case .string(let isKey):
            try consumeStringByte(byte, isKey: isKey)
        case .number(let phase):
            try consumeNumberByte(byte, phase: phase)
        case .literal(let literal, let matched, let value):
            guard byte == literal[matched] else {
                throw error("expected '\(String(decoding: literal, as: UTF8.self))', found \(Self.describe(byte))")
            }
            if matched + 1 == literal.count {
                try complete(value)
            } else {
                mode = .literal(text: literal, matched: matched + 1, value: value)
            }
        case _ where Self.isWhitespace(byte):
            return
        case .value:
            try beginValue(byte)
        case .arrayFirst:
            if byte == UInt8(ascii: "]") { try closeContainer() } else { try beginValue(byte) }
        case .objectFirst, .objectKey:
            if byte == UInt8(ascii: "\""), !(stack.isEmpty) {
                beginString(isKey: true)
            } else if byte == UInt8(ascii: "}"), case .objectFirst = mode {
                try closeContainer()
            } else {
                throw error("expected a property name in quotes, found \(Self.describe(byte))")
            }
        case .colon:
            guard byte == UInt8(ascii: ":") else { throw error("expected ':', found \(Self.describe(byte))") }
            mode = .value
        case .afterValue:
            try consumeAfterValue(byte)
        case .done:
            throw error("unexpected \(Self.describe(byte)) after the end of the document")
        }
    }

    private mutating func consumeAfterValue(_ byte: UInt8) throws {
        switch stack.last {
        case .array:
            if byte == UInt8(ascii: ",") {
                mode = .value
            } else if byte == UInt8(ascii: "]") {
                try closeContainer()
            } else {
                throw error("expected ',' or ']', found \(Self.describe(byte))")
            }
        case .object:
            if byte == UInt8(ascii: ",") {
                mode = .objectKey
            } else if byte == UInt8(ascii: "}") {
                try closeContainer()
            } else {
                throw error("expected ',' or '}', found \(Self.describe(byte))")
            }
        case nil:
            throw error("unexpected \(Self.describe(byte)) after the end of the document")
        }
    }

    private mutating func beginValue(_ byte: UInt8) throws {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < Self.maximumNesting else {
                throw error("the document nests deeper than \(Self.maximumNesting) levels")
            }
            if byte == UInt8(ascii: "{") {
                stack.append(.object(JSONObject(), key: nil))
                mode = .objectFirst
            } else {
                stack.append(.array([]))
                mode = .arrayFirst
            }
        case UInt8(ascii: "\""):
            beginString(isKey: false)
        case UInt8(ascii: "-"):
            text = [byte]
            mode = .number(.minus)
        case UInt8(ascii: "0"):
            text = [byte]
            mode = .number(.zero)
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            text = [byte]
            mode = .number(.integer)
        case UInt8(ascii: "t"):
            mode = .literal(text: Array("true".utf8), matched: 1, value: .bool(true))
        case UInt8(ascii: "f"):
            mode = .literal(text: Array("false".utf8), matched: 1, value: .bool(false))
        case UInt8(ascii: "n"):
            mode = .literal(text: Array("null".utf8), matched: 1, value: .null)
        default:
            throw error("expected a value, found \(Self.describe(byte))")
        }
    }

    private mutating func beginString(isKey: Bool) {
        text = []
        escape = .none
        utf8 = UTF8Validator()
        mode = .string(isKey: isKey)
    }

    private mutating func consumeStringByte(_ byte: UInt8, isKey: Bool) throws {
        switch escape {
        case .none:
            if !utf8.isAtBoundary || byte >= 0x80 {
                guard utf8.accept(byte) != .invalid else { throw error("invalid UTF-8 in a string") }
                text.append(byte)
            } else if byte == UInt8(ascii: "\"") {
                try endString(isKey: isKey)
            } else if byte == UInt8(ascii: "\\") {
                escape = .backslash
            } else if byte < 0x20 {
                throw error("unescaped control character \(Self.describe(byte)) in a string")
            } else {
                text.append(byte)
            }
        case .backslash:
            let unescaped: UInt8
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped = byte
            case UInt8(ascii: "b"): unescaped = 0x08
            case UInt8(ascii: "f"): unescaped = 0x0C
            case UInt8(ascii: "n"): unescaped = 0x0A
            case UInt8(ascii: "r"): unescaped = 0x0D
            case UInt8(ascii: "t"): unescaped = 0x09
            case UInt8(ascii: "u"):
                escape = .hex(count: 0, value: 0, high: nil)
                return
            default: throw error("invalid escape \\\(Self.describe(byte)) in a string")
            }
            text.append(unescaped)
            escape = .none
        case .hex(let count, let value, let high):
            guard let digit = hexDigitValue(byte) else { throw error("expected a hex digit in \\u escape") }
            let code = value << 4 | digit
            guard count == 3 else {
                escape = .hex(count: count + 1, value: code, high: high)
                return
            }
            if let high {
                guard (0xDC00...0xDFFF).contains(code) else { throw error("expected a low surrogate after \\u\(String(high, radix: 16))") }
                appendScalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00))
                escape = .none
            } else if (0xD800...0xDBFF).contains(code) {
                escape = .lowSurrogateBackslash(high: code)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw error("lone low surrogate \\u\(String(code, radix: 16)) in a string")
            } else {
                appendScalar(code)
                escape = .none
            }
        case .lowSurrogateBackslash(let high):
            guard byte == UInt8(ascii: "\\") else { throw error("expected a low surrogate escape after a high surrogate") }
            escape = .lowSurrogateU(high: high)
        case .lowSurrogateU(let high):
            guard byte == UInt8(ascii: "u") else { throw error("expected a low surrogate escape after a high surrogate") }
            escape = .hex(count: 0, value: 0, high: high)
        }
    }

    private func hexDigitValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func appendScalar(_ code: UInt32) {
        text += Array(String(Character(Unicode.Scalar(code)!)).utf8)
    }

    private mutating func endString(isKey: Bool) throws {
        let string = String(decoding: text, as: UTF8.self)
        if isKey {
            guard case .object(let object, _) = stack.last else { preconditionFailure("key outside an object") }
            guard object[string] == nil else { throw error("duplicate property \(JSONValue.string(string).jsonText)") }
            stack[stack.count - 1] = .object(object, key: string)
            mode = .colon
        } else {
            try complete(.string(string))
        }
    }

    private mutating func consumeNumberByte(_ byte: UInt8, phase: NumberPhase) throws {
        let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        let next: NumberPhase?
        switch (phase, byte) {
        case (.minus, UInt8(ascii: "0")): next = .zero
        case (.minus, _) where isDigit: next = .integer
        case (.integer, _) where isDigit: next = .integer
        case (.zero, UInt8(ascii: ".")), (.integer, UInt8(ascii: ".")): next = .dot
        case (.dot, _) where isDigit, (.fraction, _) where isDigit: next = .fraction
        case (.zero, UInt8(ascii: "e")), (.zero, UInt8(ascii: "E")), (.integer, UInt8(ascii: "e")),
            (.integer, UInt8(ascii: "E")), (.fraction, UInt8(ascii: "e")), (.fraction, UInt8(ascii: "E")):
            next = .exponentMark
        case (.exponentMark, UInt8(ascii: "+")), (.exponentMark, UInt8(ascii: "-")): next = .exponentSign
        case (.exponentMark, _) where isDigit, (.exponentSign, _) where isDigit, (.exponent, _) where isDigit:
            next = .exponent
        default: next = nil
        }
        if let next {
            text.append(byte)
            mode = .number(next)
            return
        }
        guard phase.canEnd else { throw error("malformed number: unexpected \(Self.describe(byte))") }
        if phase == .zero && isDigit { throw error("malformed number: leading zero") }
        try completeNumber()
        try consume(byte)
    }

    private mutating func completeNumber() throws {
        let literal = String(decoding: text, as: UTF8.self)
        if let integer = Int64(literal) {
            try complete(.integer(integer))
        } else if let number = Double(literal), number.isFinite {
            try complete(.number(number))
        } else {
            throw error("number \(literal) is out of range")
        }
    }

    private mutating func closeContainer() throws {
        let value: JSONValue
        switch stack.removeLast() {
        case .array(let elements): value = .array(elements)
        case .object(let object, _): value = .object(object)
        }
        try complete(value)
    }

    private mutating func complete(_ value: JSONValue) throws {
        switch stack.last {
        case nil:
            root = value
            mode = .done
            return
        case .array(var elements):
            stack[stack.count - 1] = .array([])  // release the old buffer so the append is in place
            elements.append(value)
            stack[stack.count - 1] = .array(elements)
        case .object(var object, let key):
            stack[stack.count - 1] = .object(JSONObject(), key: nil)
            object[key!] = value
            stack[stack.count - 1] = .object(object, key: nil)
        }
        mode = .afterValue
    }
}
