import Foundation

/// A value while rendering: Jinja's (Python's) data model, reduced to what templates use.
enum TemplateValue {
    /// A missing variable, attribute or key; the string says what was looked up.
    case undefined(String)
    case none
    case boolean(Bool)
    case integer(Int)
    case double(Double)
    /// Text, with the parts that came from message content marked.
    case string(TemplateString)
    case array([TemplateValue])
    case object(TemplateObject)
    /// `namespace(...)`: the one mutable value, shared by reference so loops can update it.
    case namespace(TemplateNamespace)
    /// A global function (`raise_exception`, `strftime_now`, ...) used as a value, so templates
    /// can ask `strftime_now is defined`.
    case function(String)
    /// A macro the template defined.
    case macro(TemplateMacro)

    var isTruthy: Bool {
        switch self {
        case .undefined, .none: return false
        case .boolean(let value): return value
        case .integer(let value): return value != 0
        case .double(let value): return value != 0
        case .string(let value): return !value.text.isEmpty
        case .array(let value): return !value.isEmpty
        case .object(let value): return !value.keys.isEmpty
        case .namespace, .function, .macro: return true
        }
    }

    var isDefined: Bool {
        if case .undefined = self { return false }
        return true
    }

    var typeName: String {
        switch self {
        case .undefined: return "undefined"
        case .none: return "none"
        case .boolean: return "boolean"
        case .integer: return "integer"
        case .double: return "float"
        case .string: return "string"
        case .array: return "list"
        case .object: return "dict"
        case .namespace: return "namespace"
        case .function, .macro: return "function"
        }
    }

    /// `{{ value }}` / `|string`: Python's `str()`.
    var rendered: String { renderedString.text }

    /// `rendered`, keeping which bytes came from message content.
    var renderedString: TemplateString {
        switch self {
        case .undefined: return TemplateString("")
        case .string(let value): return value
        default: return TemplateString(pythonRepresentation, derivedFrom: [self])
        }
    }

    /// Whether any string in this value (or inside its items) came from message content.
    var holdsContent: Bool {
        switch self {
        case .string(let value): return value.holdsContent
        case .array(let items): return items.contains(where: \.holdsContent)
        case .object(let object): return object.keys.contains { object.values[$0]!.holdsContent }
        case .namespace(let namespace): return TemplateValue.object(namespace.object).holdsContent
        case .undefined, .none, .boolean, .integer, .double, .function, .macro: return false
        }
    }

    /// Python's `repr()`, which is also how `str()` shows containers.
    var pythonRepresentation: String {
        switch self {
        case .undefined: return ""
        case .none: return "None"
        case .boolean(let value): return value ? "True" : "False"
        case .integer(let value): return String(value)
        case .double(let value):
            if value.isFinite && value == value.rounded() && abs(value) < 1e16 { return String(format: "%.1f", value) }
            return String(value)
        case .string(let string):
            let value = string.text
            let quote = value.contains("'") && !value.contains("\"") ? "\"" : "'"
            var escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
            if quote == "'" { escaped = escaped.replacingOccurrences(of: "'", with: "\\'") }
            return quote + escaped + quote
        case .array(let items):
            return "[" + items.map(\.pythonRepresentation).joined(separator: ", ") + "]"
        case .object(let object):
            return "{" + object.keys.map { "'\($0)': " + object.values[$0]!.pythonRepresentation }.joined(separator: ", ") + "}"
        case .namespace:
            return "<Namespace>"
        case .function(let name):
            return "<function \(name)>"
        case .macro(let macro):
            return "<macro \(macro.name)>"
        }
    }

    /// JSON text as Python's `json.dumps(value, ensure_ascii=False, indent=indent)`.
    func json(indent: Int?, level: Int = 0) -> String {
        let newline = indent.map { "\n" + String(repeating: " ", count: $0 * (level + 1)) }
        let closing = indent.map { "\n" + String(repeating: " ", count: $0 * level) } ?? ""
        let separator = indent == nil ? ", " : ","
        switch self {
        case .undefined, .none, .function, .macro: return "null"
        case .boolean(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .double: return pythonRepresentation.replacingOccurrences(of: "inf", with: "Infinity")
        case .string(let value): return Self.jsonString(value.text)
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[" + items.map { (newline ?? "") + $0.json(indent: indent, level: level + 1) }.joined(separator: separator) + closing + "]"
        case .object(let object):
            if object.keys.isEmpty { return "{}" }
            let members = object.keys.map {
                (newline ?? "") + Self.jsonString($0) + ": " + object.values[$0]!.json(indent: indent, level: level + 1)
            }
            return "{" + members.joined(separator: separator) + closing + "}"
        case .namespace(let namespace):
            return TemplateValue.object(namespace.object).json(indent: indent, level: level)
        }
    }

    private static func jsonString(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// Python equality (1 == 1.0, True == 1; containers compare deeply).
    func equals(_ other: TemplateValue) -> Bool {
        switch (self, other) {
        case (.undefined, .undefined), (.none, .none): return true
        case (.string(let a), .string(let b)): return Array(a.text.unicodeScalars) == Array(b.text.unicodeScalars)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.equals($1) }
        case (.object(let a), .object(let b)):
            return Set(a.keys) == Set(b.keys) && a.keys.allSatisfy { a.values[$0]!.equals(b.values[$0]!) }
        case (.namespace(let a), .namespace(let b)): return a === b
        case (.function(let a), .function(let b)): return a == b
        case (.macro(let a), .macro(let b)): return a === b
        default:
            if let a = numericValue, let b = other.numericValue { return a == b }
            return false
        }
    }

    var numericValue: Double? {
        switch self {
        case .boolean(let value): return value ? 1 : 0
        case .integer(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }
}

/// A dictionary that keeps insertion order, like Python's.
struct TemplateObject {
    private(set) var keys: [String] = []
    private(set) var values: [String: TemplateValue] = [:]

    init() {}

    init(_ pairs: [(String, TemplateValue)]) {
        for (key, value) in pairs { self[key] = value }
    }

    subscript(key: String) -> TemplateValue? {
        get { values[key] }
        set {
            if values[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil { keys.removeAll { $0 == key } }
            values[key] = newValue
        }
    }
}

final class TemplateNamespace {
    var object: TemplateObject

    init(_ object: TemplateObject) {
        self.object = object
    }
}
