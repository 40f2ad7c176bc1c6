/// A JSON document as parsed from a wire body or built for one.
///
/// Objects keep their members in order (requests are written in a stable, readable order and
/// function-call arguments are passed on as the server wrote them); numbers keep their exact
/// lexeme so large integers survive a round trip.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// The number's text as it appeared (or was formatted), always a valid JSON number.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    public static func integer<I: BinaryInteger>(_ value: I) -> JSONValue { .number(String(value)) }
    public static func float(_ value: Float) -> JSONValue { .number(value.isFinite ? "\(value)" : "0") }

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    public subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var objectValue: [JSONMember]? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { self == .null }

    public var doubleValue: Double? { if case .number(let n) = self { Double(n) } else { nil } }
    /// Integral numbers only (`12`, `12.0`, `1.2e1`); nil for fractions and out-of-range values.
    public var intValue: Int? {
        guard case .number(let n) = self else { return nil }
        if let exact = Int(n) { return exact }
        guard let d = Double(n), d.rounded() == d, abs(d) < 9.0e15 else { return nil }
        return Int(d)
    }

    /// Members with a value, skipping nils: builds request objects with optional fields.
    public static func members(_ pairs: [(String, JSONValue?)]) -> JSONValue {
        .object(pairs.compactMap { key, value in value.map { JSONMember(key: key, value: $0) } })
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { JSONMember(key: $0.0, value: $0.1) })
    }
    public init(nilLiteral: ()) { self = .null }
}
