/// A JSON document or any part of one.
///
/// Integers that fit in `Int64` and have no fraction or exponent in the text are kept exactly as
/// `.integer`; every other number is `.number`. The two compare equal when they denote the same
/// value (`.integer(2) == .number(2.0)`), as in JSON.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    /// A number kept as its JSON text, exactly as read (`JSONValue(parsing:keepingNumberText:)`)
    /// or formatted: integers beyond `Int64`, exponent forms and a `Float`'s shortest digits
    /// survive a round trip. Always a valid JSON number; it equals the value it denotes.
    case rawNumber(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.rawNumber(let a), .rawNumber(let b)) where a == b: true
        case (.rawNumber(let text), _): rhs.isNumber && JSONValue.reading(number: text) == rhs
        case (_, .rawNumber(let text)): lhs.isNumber && lhs == JSONValue.reading(number: text)
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.integer(let a), .number(let b)), (.number(let b), .integer(let a)): Int64(exactly: b) == a
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .integer(let value): hasher.combine(Double(value))
        case .number(let value): hasher.combine(value)
        case .rawNumber(let text): hasher.combine(Double(text) ?? 0)
        case .string(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        case .object(let value): hasher.combine(value)
        }
    }

    /// The JSON type name used in messages and in JSON Schema `type`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .rawNumber(let text): JSONValue.reading(number: text).typeName
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The value as a `Double` when it is a number of either kind.
    public var numberValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        case .rawNumber(let text): Double(text)
        default: nil
        }
    }

    /// The value as an `Int64` when it is an integer, including integral `.number`s.
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): value
        case .number(let value): Int64(exactly: value)
        case .rawNumber(let text): Int64(text) ?? Double(text).flatMap { Int64(exactly: $0) }
        default: nil
        }
    }

    public var isNumber: Bool {
        switch self {
        case .integer, .number, .rawNumber: true
        default: false
        }
    }

    /// A number's text as `.integer` when it is an integer within `Int64`, else as `.number`
    /// (out-of-range magnitudes become infinities).
    static func reading(number text: String) -> JSONValue {
        if let integer = Int64(text) { return .integer(integer) }
        return .number(Double(text) ?? .nan)
    }

    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    public var objectValue: JSONObject? { if case .object(let value) = self { value } else { nil } }
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// Member `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    /// Element `index` when this is an array and the index is inside it.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { elements[index] } else { nil }
    }

    /// A `Float` as its shortest decimal text (`0.7`, where widening it to `Double` would write
    /// `0.699999988079071`); non-finite values, which JSON cannot represent, as `null`.
    public static func float(_ value: Float) -> JSONValue {
        value.isFinite ? .rawNumber("\(value)") : .null
    }

    /// An object of the pairs that have a value, in order: builds objects with optional members.
    public static func members(_ pairs: [(String, JSONValue?)]) -> JSONValue {
        var object = JSONObject()
        for (key, value) in pairs { if let value { object[key] = value } }
        return .object(object)
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        var object = JSONObject()
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}

extension JSONValue {
    /// What a person calls this kind of value, for error messages ("expected a string, found
    /// a number"): the config's and the CLI's files name found values the same way.
    public static func kindName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number, .rawNumber: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
