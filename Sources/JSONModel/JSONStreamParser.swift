/// A push parser for one JSON document (RFC 8259, UTF-8), fed bytes in chunks of any size.
///
/// It backs streaming snapshots (`snapshot()` after each chunk shows the partially generated
/// document) and the strict parser's errors: `JSONValue(parsing:)` reads a whole document by its
/// fast path (JSONDocumentParser) and feeds this parser what that path does not accept.
/// Errors carry the byte offset of the first byte that cannot continue a valid document.
public struct JSONStreamParser: Sendable {
    /// Deeper documents are rejected; guards memory against hostile input.
    public static let maximumNesting = 256

    /// The open containers, outermost first. Their contents live in `arrays` and `objects` (one
    /// entry per open container of that kind), so that adding a value mutates them in place.
    private enum Container: Sendable {
        case array, object
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
        case literal(Literal, matched: Int)
    }

    /// `true`, `false` and `null`: what is matched byte by byte and the value it stands for.
    private enum Literal: Sendable {
        case `true`, `false`, null
        var text: StaticString {
            switch self {
            case .true: "true"
            case .false: "false"
            case .null: "null"
            }
        }
        var value: JSONValue {
            switch self {
            case .true: .bool(true)
            case .false: .bool(false)
            case .null: .null
            }
        }
    }

    /// Bytes consumed so far.
    public private(set) var byteOffset = 0
    private var stack: [Container] = []
    private var arrays: [[JSONValue]] = []
    private var objects: [JSONObject] = []
    /// The key of the member being read in each open object; nil before its key is complete.
    private var keys: [String?] = []
    private var mode: Mode = .value
    private var root: JSONValue?
    private var text: [UInt8] = []  // the current string (unescaped UTF-8) or number literal
    private var escape: Escape = .none
    private var utf8 = UTF8Validator()

    /// Whether numbers are kept as their text (`.rawNumber`) rather than read as `.integer` or
    /// `.number`: for documents passed on, whose numbers must survive exactly as written.
    public let keepsNumberText: Bool

    public init(keepingNumberText: Bool = false) {
        keepsNumberText = keepingNumberText
        // Room for typical nesting up front: growing four stacks one level at a time costs more
        // than parsing a small document.
        stack.reserveCapacity(8)
        arrays.reserveCapacity(8)
        objects.reserveCapacity(8)
        keys.reserveCapacity(8)
        text.reserveCapacity(64)
    }

    /// True once a whole document has been read (only whitespace may follow).
    public var isComplete: Bool {
        if case .done = mode { true } else { false }
    }

    public mutating func feed(_ chunk: String) throws(JSONParseError) {
        try feed(chunk.utf8)
    }

    public mutating func feed(_ bytes: some Collection<UInt8>) throws(JSONParseError) {
        var failure: JSONParseError?
        let contiguous: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(JSONParseError) { try feed(buffer: buffer) } catch { failure = error }
        }
        if contiguous == nil {
            do throws(JSONParseError) { try Array(bytes).withUnsafeBufferPointer { buffer throws(JSONParseError) in try feed(buffer: buffer) } } catch { failure = error }
        }
        if let failure { throw failure }
    }

    public mutating func feed(buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) {
        // Inside a string, runs of ordinary characters are copied in one go rather than stepped
        // through the state machine: strings are most of a typical document's bytes.
        var index = 0
        while index < buffer.count {
            if case .string(let isKey) = mode, case .none = escape {
                let start = index
                while index < buffer.count {
                    let byte = buffer[index]
                    if utf8.isAtBoundary && byte < 0x80 {
                        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                    } else if utf8.accept(byte) == .invalid {
                        byteOffset += index - start
                        throw error("invalid UTF-8 in a string")
                    }
                    index += 1
                }
                let run = UnsafeBufferPointer(rebasing: buffer[start..<index])
                byteOffset += run.count
                guard index < buffer.count else {
                    text.append(contentsOf: run)
                    return
                }
                if buffer[index] == UInt8(ascii: "\"") && text.isEmpty {
                    // The whole string is in this chunk: no copy through `text`.
                    try endString(String(decoding: run, as: UTF8.self), isKey: isKey)
                    byteOffset += 1
                    index += 1
                    continue
                }
                text.append(contentsOf: run)
            }
            try consume(buffer[index])
            byteOffset += 1
            index += 1
        }
    }

    /// The whole document; throws `.truncated` if the input stopped before it was complete.
    public mutating func finish() throws(JSONParseError) -> JSONValue {
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
        var array = arrays.count, object = objects.count
        for container in stack.reversed() {
            switch container {
            case .array:
                array -= 1
                var elements = arrays[array]
                if let partial { elements.append(partial) }
                partial = .array(elements)
            case .object:
                object -= 1
                var members = objects[object]
                if let key = keys[object], let partial { members[key] = partial }
                partial = .object(members)
            }
        }
        var components: [JSONPath.Component] = []
        for container in stack {
            switch container {
            case .array:
                components.append(.index(arrays[array].count))
                array += 1
            case .object:
                if let key = keys[object] { components.append(.key(key)) }
                object += 1
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

    private mutating func consume(_ byte: UInt8) throws(JSONParseError) {
        switch mode {
        case .string(let isKey):
            try consumeStringByte(byte, isKey: isKey)
        case .number(let phase):
            try consumeNumberByte(byte, phase: phase)
        case .literal(let literal, let matched):
            guard byte == literal.text.utf8Start[matched] else {
                throw error("expected '\(literal.text)', found \(Self.describe(byte))")
            }
            if matched + 1 == literal.text.utf8CodeUnitCount {
                try complete(literal.value)
            } else {
                mode = .literal(literal, matched: matched + 1)
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

    private mutating func consumeAfterValue(_ byte: UInt8) throws(JSONParseError) {
        guard let container = stack.last else {
            throw error("unexpected \(Self.describe(byte)) after the end of the document")
        }
        let (next, close): (Mode, UInt8) = container == .array ? (.value, UInt8(ascii: "]")) : (.objectKey, UInt8(ascii: "}"))
        if byte == UInt8(ascii: ",") {
            mode = next
        } else if byte == close {
            try closeContainer()
        } else {
            throw error("expected ',' or '\(Character(Unicode.Scalar(close)))', found \(Self.describe(byte))")
        }
    }

    private mutating func beginValue(_ byte: UInt8) throws(JSONParseError) {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < Self.maximumNesting else {
                throw error("the document nests deeper than \(Self.maximumNesting) levels")
            }
            if byte == UInt8(ascii: "{") {
                stack.append(.object)
                objects.append(JSONObject())
                keys.append(nil)
                mode = .objectFirst
            } else {
                stack.append(.array)
                arrays.append([])
                mode = .arrayFirst
            }
        case UInt8(ascii: "\""):
            beginString(isKey: false)
        case UInt8(ascii: "-"):
            text.removeAll(keepingCapacity: true)
            text.append(byte)
            mode = .number(.minus)
        case UInt8(ascii: "0"):
            text.removeAll(keepingCapacity: true)
            text.append(byte)
            mode = .number(.zero)
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            text.removeAll(keepingCapacity: true)
            text.append(byte)
            mode = .number(.integer)
        case UInt8(ascii: "t"):
            mode = .literal(.true, matched: 1)
        case UInt8(ascii: "f"):
            mode = .literal(.false, matched: 1)
        case UInt8(ascii: "n"):
            mode = .literal(.null, matched: 1)
        default:
            throw error("expected a value, found \(Self.describe(byte))")
        }
    }

    private mutating func beginString(isKey: Bool) {
        text.removeAll(keepingCapacity: true)
        escape = .none
        utf8 = UTF8Validator()
        mode = .string(isKey: isKey)
    }

    private mutating func consumeStringByte(_ byte: UInt8, isKey: Bool) throws(JSONParseError) {
        switch escape {
        case .none:
            if !utf8.isAtBoundary || byte >= 0x80 {
                guard utf8.accept(byte) != .invalid else { throw error("invalid UTF-8 in a string") }
                text.append(byte)
            } else if byte == UInt8(ascii: "\"") {
                try endString(String(decoding: text, as: UTF8.self), isKey: isKey)
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

    private mutating func endString(_ string: String, isKey: Bool) throws(JSONParseError) {
        if isKey {
            guard objects[objects.count - 1][string] == nil else {
                throw error("duplicate property \(JSONValue.string(string).jsonText)")
            }
            keys[keys.count - 1] = string
            mode = .colon
        } else {
            try complete(.string(string))
        }
    }

    private mutating func consumeNumberByte(_ byte: UInt8, phase: NumberPhase) throws(JSONParseError) {
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

    private mutating func completeNumber() throws(JSONParseError) {
        let literal = String(decoding: text, as: UTF8.self)
        if keepsNumberText {
            try complete(.rawNumber(literal))
        } else if let integer = Int64(literal) {
            try complete(.integer(integer))
        } else if let number = Double(literal), number.isFinite {
            try complete(.number(number))
        } else {
            throw error("number \(literal) is out of range")
        }
    }

    private mutating func closeContainer() throws(JSONParseError) {
        let value: JSONValue
        switch stack.removeLast() {
        case .array: value = .array(arrays.removeLast())
        case .object:
            keys.removeLast()
            value = .object(objects.removeLast())
        }
        try complete(value)
    }

    private mutating func complete(_ value: JSONValue) throws(JSONParseError) {
        switch stack.last {
        case nil:
            root = value
            mode = .done
            return
        case .array:
            arrays[arrays.count - 1].append(value)
        case .object:
            objects[objects.count - 1][keys[keys.count - 1]!] = value
            keys[keys.count - 1] = nil
        }
        mode = .afterValue
    }
}
