import Foundation

/// The Jinja filters chat templates use (`value | name(arguments)`), with Python's semantics.
enum TemplateFilters {
    /// Each filter's parameters, in positional order; an argument outside them is an error
    /// rather than silently ignored. `*` accepts any number of positional arguments.
    static let parameters: [String: [String]] = [
        "trim": ["chars"], "length": [], "count": [], "upper": [], "lower": [], "title": [], "capitalize": [],
        "default": ["default_value", "boolean"], "d": ["default_value", "boolean"], "first": [], "last": [],
        "join": ["d", "attribute"], "string": [], "int": [], "float": [], "list": [], "tojson": ["indent"],
        "safe": [], "replace": ["old", "new", "count"], "reverse": [], "selectattr": ["*"], "rejectattr": ["*"], "select": ["*"], "reject": ["*"],
        "map": ["*", "attribute", "default"], "items": [], "abs": [], "unique": [], "sort": ["reverse"],
        "indent": ["width", "first"], "escape": [], "e": [], "round": ["precision", "method"], "sum": [], "min": [], "max": [],
    ]

    static func apply(_ name: String, to value: TemplateValue, arguments: TemplateInterpreter.EvaluatedArguments,
                      interpreter: TemplateInterpreter, at offset: Int) throws -> TemplateValue {
        func fail(_ message: String) -> TemplateError {
            interpreter.error(.evaluation, "filter '\(name)': \(message)", at: offset)
        }
        func string() throws -> String {
            switch value {
            case .string(let text): return text.text
            case .undefined: return ""
            default: return value.rendered
            }
        }
        /// A result computed from the value and the arguments.
        func derived(_ result: String) -> TemplateValue {
            .string(TemplateString(result, derivedFrom: [value] + arguments.positional + Array(arguments.named.values)))
        }
        func list() throws -> [TemplateValue] {
            do { return try interpreter.iterate(value, at: offset) } catch { throw fail("\(value.typeName) is not a sequence") }
        }
        func stringArgument(_ position: Int, _ key: String) throws -> String? {
            switch arguments.argument(position, key) {
            case nil: return nil
            case .string(let text)?: return text.text
            case let other?: throw fail("argument '\(key)' must be a string, not \(other.typeName)")
            }
        }

        let accepted = parameters[name] ?? []
        if !accepted.contains("*") && arguments.positional.count > accepted.count {
            throw interpreter.error(.unsupportedConstruct,
                "filter '\(name)' takes at most \(accepted.count) arguments, got \(arguments.positional.count)", at: offset)
        }
        if let unknown = arguments.named.keys.sorted().first(where: { !accepted.contains($0) }) {
            throw interpreter.error(.unsupportedConstruct, "argument '\(unknown)' of filter '\(name)' is not supported", at: offset)
        }

        switch name {
        case "trim":
            return derived(strip(try string(), characters: try stringArgument(0, "chars"), leading: true, trailing: true))
        case "length", "count":
            switch value {
            case .string(let text): return .integer(text.text.unicodeScalars.count)
            case .array(let items): return .integer(items.count)
            case .object(let object): return .integer(object.keys.count)
            case .undefined: return .integer(0)
            default: throw fail("\(value.typeName) has no length")
            }
        case "upper": return derived(try string().uppercased())
        case "lower": return derived(try string().lowercased())
        case "title": return derived(title(try string()))
        case "capitalize": return derived(capitalize(try string()))
        case "default", "d":
            let fallback = arguments.argument(0, "default_value") ?? .string(TemplateString(""))
            let useFalsy = arguments.argument(1, "boolean")?.isTruthy ?? false
            return (!value.isDefined || (useFalsy && !value.isTruthy)) ? fallback : value
        case "first", "last":
            let items = try list()
            return (name == "first" ? items.first : items.last) ?? .undefined("\(name) of an empty sequence")
        case "join":
            var items = try list()
            if let attribute = try stringArgument(1, "attribute") {
                items = items.map { item in
                    if case .object(let object) = item { return object[attribute] ?? .undefined(attribute) }
                    return .undefined(attribute)
                }
            }
            let separator: TemplateString
            switch arguments.argument(0, "d") {
            case nil: separator = TemplateString("")
            case .string(let text)?: separator = text
            case let other?: throw fail("argument 'd' must be a string, not \(other.typeName)")
            }
            return .string(TemplateString.joined(items, separator: separator))
        case "string":
            return .string(value.renderedString)
        case "int":
            switch value {
            case .integer: return value
            case .double(let number):
                guard let integer = Int(exactly: number.rounded(.towardZero)) else { throw fail("\(number) is not a representable integer") }
                return .integer(integer)
            case .boolean(let flag): return .integer(flag ? 1 : 0)
            case .string(let text): return .integer(Int(text.text.trimmingCharacters(in: .whitespaces)) ?? 0)
            default: return .integer(0)
            }
        case "float":
            switch value {
            case .integer(let number): return .double(Double(number))
            case .double: return value
            case .string(let text): return .double(Double(text.text.trimmingCharacters(in: .whitespaces)) ?? 0)
            default: return .double(0)
            }
        case "list":
            return .array(try list())
        case "tojson":
            let indent: Int?
            switch arguments.argument(0, "indent") {
            case nil, .none?: indent = nil
            case .integer(let width)?: indent = width
            case let other?: throw fail("indent must be an integer, not \(other.typeName)")
            }
            return derived(value.json(indent: indent))
        case "safe":
            return value
        case "escape", "e":
            var text = try string()
            for (raw, escaped) in [("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&#34;"), ("'", "&#39;")] {
                text = text.replacingOccurrences(of: raw, with: escaped)
            }
            return derived(text)
        case "replace":
            guard let old = try stringArgument(0, "old"), let new = try stringArgument(1, "new") else {
                throw fail("needs the text to replace and its replacement")
            }
            var text = try string()
            switch arguments.argument(2, "count") {
            case nil, .none?:
                text = text.replacingOccurrences(of: old, with: new)
            case .integer(let count)?:
                for _ in 0..<max(count, 0) {
                    guard !old.isEmpty, let range = text.range(of: old) else { break }
                    text.replaceSubrange(range, with: new)
                }
            case let other?:
                throw fail("count must be an integer, not \(other.typeName)")
            }
            return derived(text)
        case "reverse":
            if case .string(let text) = value { return derived(String(text.text.reversed())) }
            return .array(try list().reversed())
        case "items":
            guard case .object(let object) = value else {
                if case .undefined = value { return .array([]) }
                throw fail("\(value.typeName) is not a dictionary")
            }
            return .array(object.keys.map { .array([.string(TemplateString($0)), object[$0]!]) })
        case "select", "reject":
            let testName = try stringArgument(0, "test")
            let testArguments = TemplateInterpreter.EvaluatedArguments(
                positional: Array(arguments.positional.dropFirst(1)), named: [:])
            let keep = name == "select"
            return .array(try list().filter { item in
                guard let testName else { return item.isTruthy == keep }
                guard TemplateParser.tests.contains(testName) else { throw fail("unknown test '\(testName)'") }
                return try interpreter.applyTest(testName, to: item, arguments: testArguments, at: offset) == keep
            })
        case "selectattr", "rejectattr":
            guard let attribute = try stringArgument(0, "attribute") else { throw fail("needs an attribute name") }
            let testName = try stringArgument(1, "test")
            let testArguments = TemplateInterpreter.EvaluatedArguments(
                positional: Array(arguments.positional.dropFirst(2)), named: [:])
            let keep = name == "selectattr"
            return .array(try list().filter { item in
                let field: TemplateValue
                if case .object(let object) = item { field = object[attribute] ?? .undefined(attribute) } else { field = .undefined(attribute) }
                let passed: Bool
                if let testName {
                    guard TemplateParser.tests.contains(testName) || testName == "==" else { throw fail("unknown test '\(testName)'") }
                    passed = try interpreter.applyTest(testName == "==" ? "equalto" : testName, to: field, arguments: testArguments, at: offset)
                } else {
                    passed = field.isTruthy
                }
                return passed == keep
            })
        case "map":
            if case .string(let attribute)? = arguments.named["attribute"] {
                return .array(try list().map { item in
                    if case .object(let object) = item { return object[attribute.text] ?? arguments.named["default"] ?? .undefined(attribute.text) }
                    return .undefined(attribute.text)
                })
            }
            guard let filter = try stringArgument(0, "filter"), TemplateParser.filters.contains(filter), filter != "map" else {
                throw fail("needs attribute= or the name of a supported filter")
            }
            let rest = TemplateInterpreter.EvaluatedArguments(positional: Array(arguments.positional.dropFirst()), named: [:])
            return .array(try list().map { try apply(filter, to: $0, arguments: rest, interpreter: interpreter, at: offset) })
        case "abs":
            switch value {
            case .integer(let number): return .integer(abs(number))
            case .double(let number): return .double(abs(number))
            default: throw fail("\(value.typeName) is not a number")
            }
        case "round":
            guard let number = value.numericValue else { throw fail("\(value.typeName) is not a number") }
            var digits = 0
            if case .integer(let precision)? = arguments.argument(0, "precision") { digits = precision }
            let rule: FloatingPointRoundingRule
            switch try stringArgument(1, "method") ?? "common" {
            case "common": rule = .toNearestOrEven  // Python's round()
            case "ceil": rule = .up
            case "floor": rule = .down
            case let other: throw fail("method must be common, ceil or floor, not '\(other)'")
            }
            let scale = pow(10.0, Double(digits))
            return .double((number * scale).rounded(rule) / scale)
        case "sum":
            var total: TemplateValue = .integer(0)
            for item in try list() {
                switch (total, item) {
                case (.integer(let a), .integer(let b)): total = .integer(a + b)
                default:
                    guard let a = total.numericValue, let b = item.numericValue else { throw fail("cannot add \(item.typeName)") }
                    total = .double(a + b)
                }
            }
            return total
        case "min", "max", "sort", "unique":
            let items = try list()
            let sorted = try items.sorted { a, b in
                if let x = a.numericValue, let y = b.numericValue { return x < y }
                if case .string(let x) = a, case .string(let y) = b {
                    return x.text.unicodeScalars.map(\.value).lexicographicallyPrecedes(y.text.unicodeScalars.map(\.value))
                }
                throw fail("cannot order \(a.typeName) and \(b.typeName)")
            }
            switch name {
            case "min": return sorted.first ?? .undefined("min of an empty sequence")
            case "max": return sorted.last ?? .undefined("max of an empty sequence")
            case "sort":
                return .array(arguments.argument(0, "reverse")?.isTruthy == true ? sorted.reversed() : sorted)
            default:
                var unique: [TemplateValue] = []
                for item in items where !unique.contains(where: { $0.equals(item) }) { unique.append(item) }
                return .array(unique)
            }
        case "indent":
            var width = 4
            if case .integer(let count)? = arguments.argument(0, "width") { width = count }
            let indentFirst = arguments.argument(1, "first")?.isTruthy ?? false
            let pad = String(repeating: " ", count: width)
            let lines = try string().components(separatedBy: "\n")
            return derived(lines.enumerated().map { index, line in
                (index == 0 && !indentFirst) || line.isEmpty ? line : pad + line
            }.joined(separator: "\n"))
        default:
            throw interpreter.error(.unsupportedConstruct, "filter '\(name)' is not supported", at: offset)
        }
    }

    /// Python's `str.strip` family: whitespace, or the given characters.
    static func strip(_ text: String, characters: String?, leading: Bool, trailing: Bool) -> String {
        let set = characters.map { Set($0.unicodeScalars) }
        func remove(_ scalar: Unicode.Scalar) -> Bool {
            set.map { $0.contains(scalar) } ?? scalar.properties.isWhitespace
        }
        var scalars = Array(text.unicodeScalars)[...]
        if leading { while let first = scalars.first, remove(first) { scalars.removeFirst() } }
        if trailing { while let last = scalars.last, remove(last) { scalars.removeLast() } }
        return String(String.UnicodeScalarView(scalars))
    }

    /// Python's `str.split`: on runs of whitespace without a separator, else on the separator.
    static func split(_ text: String, separator: String?) -> [String] {
        guard let separator, !separator.isEmpty else {
            return text.unicodeScalars.split(whereSeparator: { $0.properties.isWhitespace }).map { String(String.UnicodeScalarView($0)) }
        }
        return text.components(separatedBy: separator)
    }

    static func capitalize(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst().lowercased()
    }

    static func title(_ text: String) -> String {
        var result = ""
        var atWordStart = true
        for character in text {
            result += atWordStart ? character.uppercased() : character.lowercased()
            atWordStart = !character.isLetter && !character.isNumber
        }
        return result
    }
}
