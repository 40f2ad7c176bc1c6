import Foundation

/// Renders parsed template nodes. Scoping follows Jinja: a loop body is a new scope per
/// iteration (so `set` inside a loop does not leak out; `namespace` objects are how templates
/// carry state out of loops), `if` blocks share the enclosing scope.
struct TemplateInterpreter {
    private let source: [UInt8]
    private var scopes: [[String: TemplateValue]]
    private var output = TemplateString("")
    /// The current time for `strftime_now`, fixed per render.
    private let now: Date
    /// Macro calls in progress (bounded: a macro may call itself).
    private let macroDepth: Int
    // Small: each level may sit inside deeply nested blocks and expressions on the same stack.
    static let maximumMacroDepth = 10

    init(source: [UInt8], variables: [String: TemplateValue], now: Date, macroDepth: Int = 0) {
        self.source = source
        scopes = [variables]
        self.now = now
        self.macroDepth = macroDepth
    }

    static func render(_ nodes: [TemplateNode], source: [UInt8], variables: [String: TemplateValue], now: Date) throws -> TemplateString {
        var interpreter = TemplateInterpreter(source: source, variables: variables, now: now)
        try interpreter.execute(nodes)
        return interpreter.output
    }

    func error(_ code: TemplateError.Code, _ message: String, at offset: Int) -> TemplateError {
        let (line, column) = TemplateLexer.position(of: offset, in: source)
        return TemplateError(code, message, line: line, column: column)
    }

    // MARK: Statements

    private mutating func execute(_ nodes: [TemplateNode]) throws {
        for node in nodes {
            switch node {
            case .text(let text):
                output.append(TemplateString(text))
            case .output(let expression):
                output.append(try evaluate(expression).renderedString)
            case .conditional(let branches, let otherwise):
                if let branch = try branches.first(where: { try evaluate($0.condition).isTruthy }) {
                    try execute(branch.body)
                } else {
                    try execute(otherwise)
                }
            case .loop(let loop):
                try execute(loop)
            case .assignment(let target, let attribute, let value):
                let result = try evaluate(value)
                if let attribute {
                    guard case .namespace(let namespace)? = lookup(target) else {
                        throw error(.evaluation, "'\(target)' is not a namespace; only namespace attributes can be set", at: value.offset)
                    }
                    namespace.object[attribute] = result
                } else {
                    scopes[scopes.count - 1][target] = result
                }
            case .macroDefinition(let macro):
                scopes[scopes.count - 1][macro.name] = .macro(macro)
            case .blockAssignment(let target, let body):
                let saved = output
                output = TemplateString("")
                try execute(body)
                scopes[scopes.count - 1][target] = .string(output)
                output = saved
            }
        }
    }

    private mutating func execute(_ loop: TemplateLoop) throws {
        var items = try iterate(try evaluate(loop.iterable), at: loop.iterable.offset)
        if let filter = loop.filter {
            var kept: [TemplateValue] = []
            for item in items {
                scopes.append(try bind(loop.targets, to: item, at: loop.iterable.offset))
                defer { scopes.removeLast() }
                if try evaluate(filter).isTruthy { kept.append(item) }
            }
            items = kept
        }
        if items.isEmpty {
            try execute(loop.otherwise)
            return
        }
        for (index, item) in items.enumerated() {
            var scope = try bind(loop.targets, to: item, at: loop.iterable.offset)
            scope["loop"] = .object(TemplateObject([
                ("index", .integer(index + 1)), ("index0", .integer(index)),
                ("revindex", .integer(items.count - index)), ("revindex0", .integer(items.count - index - 1)),
                ("first", .boolean(index == 0)), ("last", .boolean(index == items.count - 1)),
                ("length", .integer(items.count)),
                ("previtem", index > 0 ? items[index - 1] : .undefined("loop.previtem")),
                ("nextitem", index + 1 < items.count ? items[index + 1] : .undefined("loop.nextitem")),
            ]))
            scopes.append(scope)
            defer { scopes.removeLast() }
            try execute(loop.body)
        }
    }

    private func bind(_ targets: [String], to item: TemplateValue, at offset: Int) throws -> [String: TemplateValue] {
        if targets.count == 1 { return [targets[0]: item] }
        guard case .array(let parts) = item, parts.count == targets.count else {
            throw error(.evaluation, "cannot unpack \(item.typeName) into \(targets.count) names", at: offset)
        }
        return Dictionary(uniqueKeysWithValues: zip(targets, parts))
    }

    /// What `for` iterates: list items, dictionary keys, string characters; nothing for undefined.
    func iterate(_ value: TemplateValue, at offset: Int) throws -> [TemplateValue] {
        switch value {
        case .undefined: return []
        case .array(let items): return items
        case .object(let object): return object.keys.map { .string(TemplateString($0)) }
        case .string(let text): return text.text.unicodeScalars.map { .string(TemplateString(String($0), derivedFrom: [value])) }
        default: throw error(.evaluation, "\(value.typeName) is not iterable", at: offset)
        }
    }

    private func lookup(_ name: String) -> TemplateValue? {
        for scope in scopes.reversed() {
            if let value = scope[name] { return value }
        }
        return nil
    }

    // MARK: Expressions

    func evaluate(_ expression: TemplateExpression) throws -> TemplateValue {
        let offset = expression.offset
        switch expression.kind {
        case .literal(let value):
            return value
        case .variable(let name):
            if let value = lookup(name) { return value }
            return Self.globalFunctions.contains(name) ? .function(name) : .undefined(name)
        case .list(let items):
            return .array(try items.map(evaluate))
        case .dictionary(let entries):
            var object = TemplateObject()
            for entry in entries {
                guard case .string(let key) = try evaluate(entry.key) else {
                    throw error(.unsupportedConstruct, "dictionary keys must be strings", at: entry.key.offset)
                }
                // Keys are plain strings, read back as template text (`items`, `keys`): one made
                // from message content would pass for the template's own text.
                guard !key.holdsContent else {
                    throw error(.unsupportedConstruct, "dictionary keys made from message content are not supported", at: entry.key.offset)
                }
                object[key.text] = try evaluate(entry.value)
            }
            return .object(object)
        case .attribute(let base, let name):
            let value = try evaluate(base)
            return try member(of: value, name, describing: base, at: offset)
        case .item(let base, let key):
            let value = try evaluate(base)
            let keyValue = try evaluate(key)
            if case .string(let name) = keyValue { return try member(of: value, name.text, describing: base, at: offset) }
            return try index(value, by: keyValue, describing: base, at: offset)
        case .slice(let base, let start, let stop, let step):
            return try slice(try evaluate(base), start: start.map(evaluate), stop: stop.map(evaluate),
                             step: step.map(evaluate), at: offset)
        case .call(let callee, let arguments):
            return try call(callee, arguments, at: offset)
        case .filter(let base, let name, let arguments):
            return try applyFilter(name, to: try evaluate(base), arguments: evaluate(arguments), at: offset)
        case .test(let base, let name, let arguments, let negated):
            let result = try applyTest(name, to: try evaluate(base), arguments: evaluate(arguments), at: offset)
            return .boolean(result != negated)
        case .not(let operand):
            return .boolean(!(try evaluate(operand).isTruthy))
        case .negate(let operand):
            switch try evaluate(operand) {
            case .integer(let value): return .integer(try checked(0.subtractingReportingOverflow(value), at: offset))
            case .double(let value): return .double(-value)
            case let other: throw error(.evaluation, "cannot negate \(other.typeName)", at: offset)
            }
        case .and(let left, let right):
            let first = try evaluate(left)
            return first.isTruthy ? try evaluate(right) : first
        case .or(let left, let right):
            let first = try evaluate(left)
            return first.isTruthy ? first : try evaluate(right)
        case .binary(let op, let left, let right):
            return try binary(op, try evaluate(left), try evaluate(right), at: offset)
        case .conditional(let condition, let then, let otherwise):
            if try evaluate(condition).isTruthy { return try evaluate(then) }
            return try otherwise.map(evaluate) ?? .undefined("conditional expression without else")
        }
    }

    struct EvaluatedArguments {
        var positional: [TemplateValue]
        var named: [String: TemplateValue]

        func argument(_ position: Int, _ name: String) -> TemplateValue? {
            position >= 0 && position < positional.count ? positional[position] : named[name]
        }
    }

    private func evaluate(_ arguments: TemplateArguments) throws -> EvaluatedArguments {
        var named: [String: TemplateValue] = [:]
        for entry in arguments.named { named[entry.name] = try evaluate(entry.value) }
        return EvaluatedArguments(positional: try arguments.positional.map(evaluate), named: named)
    }

    /// `base.name` / `base['name']`: a key of a dictionary (or namespace), else undefined.
    private func member(of value: TemplateValue, _ name: String, describing base: TemplateExpression, at offset: Int) throws -> TemplateValue {
        switch value {
        case .object(let object): return object[name] ?? .undefined(name)
        case .namespace(let namespace): return namespace.object[name] ?? .undefined(name)
        case .undefined(let what): throw error(.evaluation, "'\(what)' is undefined (reading '\(name)')", at: offset)
        case .none: throw error(.evaluation, "cannot read '\(name)' of none", at: offset)
        default: return .undefined(name)
        }
    }

    private func index(_ value: TemplateValue, by key: TemplateValue, describing base: TemplateExpression, at offset: Int) throws -> TemplateValue {
        guard case .integer(let position) = key else {
            if case .undefined(let what) = value { throw error(.evaluation, "'\(what)' is undefined", at: offset) }
            throw error(.evaluation, "cannot index \(value.typeName) with \(key.typeName)", at: offset)
        }
        switch value {
        case .array(let items):
            let resolved = position < 0 ? items.count + position : position
            return items.indices.contains(resolved) ? items[resolved] : .undefined("index \(position)")
        case .string(let text):
            let scalars = Array(text.text.unicodeScalars)
            let resolved = position < 0 ? scalars.count + position : position
            return scalars.indices.contains(resolved)
                ? .string(TemplateString(String(scalars[resolved]), derivedFrom: [value])) : .undefined("index \(position)")
        case .undefined(let what):
            throw error(.evaluation, "'\(what)' is undefined", at: offset)
        default:
            throw error(.evaluation, "cannot index \(value.typeName)", at: offset)
        }
    }

    private func slice(_ value: TemplateValue, start: TemplateValue?, stop: TemplateValue?, step: TemplateValue?, at offset: Int) throws -> TemplateValue {
        func integer(_ bound: TemplateValue?) throws -> Int? {
            switch bound {
            case nil, .none?: return nil
            case .integer(let value)?: return value
            case let other?: throw error(.evaluation, "slice bounds must be integers, not \(other.typeName)", at: offset)
            }
        }
        let stride = try integer(step) ?? 1
        guard stride != 0 else { throw error(.evaluation, "slice step cannot be zero", at: offset) }
        func indices(count: Int) throws -> [Int] {
            func clamp(_ bound: Int?, _ fallback: Int) -> Int {
                guard var bound else { return fallback }
                if bound < 0 { bound += count }
                return stride > 0 ? min(max(bound, 0), count) : min(max(bound, -1), count - 1)
            }
            let first = clamp(try integer(start), stride > 0 ? 0 : count - 1)
            let end = clamp(try integer(stop), stride > 0 ? count : -1)
            return Array(Swift.stride(from: first, to: end, by: stride))
        }
        switch value {
        case .array(let items): return .array(try indices(count: items.count).map { items[$0] })
        case .string(let text):
            let scalars = Array(text.text.unicodeScalars)
            let sliced = String(String.UnicodeScalarView(try indices(count: scalars.count).map { scalars[$0] }))
            return .string(TemplateString(sliced, derivedFrom: [value]))
        default: throw error(.evaluation, "cannot slice \(value.typeName)", at: offset)
        }
    }

    private func binary(_ op: String, _ left: TemplateValue, _ right: TemplateValue, at offset: Int) throws -> TemplateValue {
        switch op {
        case "==": return .boolean(left.equals(right))
        case "!=": return .boolean(!left.equals(right))
        case "<", "<=", ">", ">=":
            let order: Int
            if let a = left.numericValue, let b = right.numericValue {
                order = a < b ? -1 : a > b ? 1 : 0
            } else if case .string(let a) = left, case .string(let b) = right {
                let x = Array(a.text.unicodeScalars.map(\.value)), y = Array(b.text.unicodeScalars.map(\.value))
                order = x.lexicographicallyPrecedes(y) ? -1 : x == y ? 0 : 1
            } else {
                throw error(.evaluation, "cannot compare \(left.typeName) and \(right.typeName) with \(op)", at: offset)
            }
            switch op {
            case "<": return .boolean(order < 0)
            case "<=": return .boolean(order <= 0)
            case ">": return .boolean(order > 0)
            default: return .boolean(order >= 0)
            }
        case "in":
            switch right {
            case .string(let text):
                guard case .string(let part) = left else {
                    throw error(.evaluation, "'in <string>' needs a string on the left, not \(left.typeName)", at: offset)
                }
                // Code points, not Swift's grapheme-aware matching: "e" is in "e\u{301}", as in Python.
                return .boolean(part.text.isEmpty || Array(text.text.utf8).firstRange(of: Array(part.text.utf8)) != nil)
            case .array(let items): return .boolean(items.contains { $0.equals(left) })
            case .object(let object):
                if case .string(let key) = left { return .boolean(object[key.text] != nil) }
                return .boolean(false)
            case .undefined: return .boolean(false)
            default: throw error(.evaluation, "cannot test membership in \(right.typeName)", at: offset)
            }
        case "~":
            return .string(left.renderedString + right.renderedString)
        case "+":
            switch (left, right) {
            case (.integer(let a), .integer(let b)): return .integer(try checked(a.addingReportingOverflow(b), at: offset))
            case (.string(let a), .string(let b)): return .string(a + b)
            case (.array(let a), .array(let b)): return .array(a + b)
            default: break
            }
        case "*":
            switch (left, right) {
            case (.integer(let a), .integer(let b)): return .integer(try checked(a.multipliedReportingOverflow(by: b), at: offset))
            case (.string(let text), .integer(let count)), (.integer(let count), .string(let text)):
                guard count <= 0 || text.text.utf8.count <= Self.maximumSize / count else {
                    throw error(.evaluation, "string repetition larger than \(Self.maximumSize) bytes", at: offset)
                }
                return .string(TemplateString(String(repeating: text.text, count: max(count, 0)), derivedFrom: [left, right]))
            default: break
            }
        case "-":
            if case .integer(let a) = left, case .integer(let b) = right {
                return .integer(try checked(a.subtractingReportingOverflow(b), at: offset))
            }
        case "//", "%":
            if case .integer(let a) = left, case .integer(let b) = right {
                guard b != 0 else { throw error(.evaluation, "division by zero", at: offset) }
                // Python rounds toward negative infinity.
                var quotient = try checked(a.dividedReportingOverflow(by: b), at: offset)
                if a % b != 0 && (a < 0) != (b < 0) { quotient -= 1 }
                return op == "//" ? .integer(quotient) : .integer(a - quotient * b)
            }
            if op == "%", case .string = left {
                throw error(.unsupportedConstruct, "string formatting with % is not supported", at: offset)
            }
        case "**":
            if case .integer(var base) = left, case .integer(var exponent) = right, exponent >= 0 {
                var result = 1
                while exponent > 0 {
                    if exponent & 1 == 1 { result = try checked(result.multipliedReportingOverflow(by: base), at: offset) }
                    exponent >>= 1
                    if exponent > 0 { base = try checked(base.multipliedReportingOverflow(by: base), at: offset) }
                }
                return .integer(result)
            }
        default:
            break
        }
        // Arithmetic on mixed numbers.
        guard let a = left.numericValue, let b = right.numericValue else {
            throw error(.evaluation, "unsupported operand types for \(op): \(left.typeName) and \(right.typeName)", at: offset)
        }
        switch op {
        case "+": return .double(a + b)
        case "-": return .double(a - b)
        case "*": return .double(a * b)
        case "/":
            guard b != 0 else { throw error(.evaluation, "division by zero", at: offset) }
            return .double(a / b)
        case "//":
            guard b != 0 else { throw error(.evaluation, "division by zero", at: offset) }
            return .double((a / b).rounded(.down))
        case "%":
            guard b != 0 else { throw error(.evaluation, "division by zero", at: offset) }
            return .double(a - (a / b).rounded(.down) * b)
        case "**": return .double(pow(a, b))
        default: throw error(.evaluation, "unsupported operator \(op)", at: offset)
        }
    }

    // MARK: Calls

    private func call(_ callee: TemplateExpression, _ arguments: TemplateArguments, at offset: Int) throws -> TemplateValue {
        let args = try evaluate(arguments)
        switch callee.kind {
        case .variable:
            switch try evaluate(callee) {
            case .function(let name): return try callGlobal(name, args, at: offset)
            case .macro(let macro): return try call(macro, args, at: offset)
            case let other: throw error(.evaluation, "\(other.typeName) is not callable", at: offset)
            }
        case .attribute(let base, let name):
            return try callMethod(name, on: try evaluate(base), args, at: offset)
        default:
            throw error(.unsupportedConstruct, "only global functions and methods can be called", at: offset)
        }
    }

    /// Largest string or list a template may build (a guard against runaway templates).
    static let maximumSize = 10_000_000

    private func checked(_ result: (partialValue: Int, overflow: Bool), at offset: Int) throws -> Int {
        guard !result.overflow else { throw error(.evaluation, "integer overflow", at: offset) }
        return result.partialValue
    }

    /// Renders a macro's body with its parameters bound, seeing the template's top-level names.
    private func call(_ macro: TemplateMacro, _ args: EvaluatedArguments, at offset: Int) throws -> TemplateValue {
        guard macroDepth < Self.maximumMacroDepth else {
            throw error(.evaluation, "macro calls nested deeper than \(Self.maximumMacroDepth) (runaway recursion in '\(macro.name)')", at: offset)
        }
        guard args.positional.count <= macro.parameters.count else {
            throw error(.evaluation, "macro '\(macro.name)' takes \(macro.parameters.count) arguments, got \(args.positional.count)", at: offset)
        }
        if let unknown = args.named.keys.sorted().first(where: { name in !macro.parameters.contains { $0.name == name } }) {
            throw error(.evaluation, "macro '\(macro.name)' has no parameter '\(unknown)'", at: offset)
        }
        var parameters: [String: TemplateValue] = [:]
        for (index, parameter) in macro.parameters.enumerated() {
            if let value = args.argument(index, parameter.name) {
                parameters[parameter.name] = value
            } else if let defaultValue = parameter.defaultValue {
                parameters[parameter.name] = try evaluate(defaultValue)
            } else {
                parameters[parameter.name] = .undefined(parameter.name)
            }
        }
        var nested = TemplateInterpreter(source: source, variables: scopes[0], now: now, macroDepth: macroDepth + 1)
        nested.scopes.append(parameters)
        try nested.execute(macro.body)
        return .string(nested.output)
    }

    static let globalFunctions: Set<String> = ["raise_exception", "namespace", "range", "strftime_now"]

    private func callGlobal(_ name: String, _ args: EvaluatedArguments, at offset: Int) throws -> TemplateValue {
        switch name {
        case "raise_exception":
            throw error(.raisedByTemplate, args.positional.first?.rendered ?? "raise_exception called", at: offset)
        case "namespace":
            var object = TemplateObject()
            for (key, value) in args.named.sorted(by: { $0.key < $1.key }) { object[key] = value }
            return .namespace(TemplateNamespace(object))
        case "range":
            let bounds = try args.positional.map { value -> Int in
                guard case .integer(let bound) = value else { throw error(.evaluation, "range() takes integers", at: offset) }
                return bound
            }
            let (start, stop, step): (Int, Int, Int)
            switch bounds.count {
            case 1: (start, stop, step) = (0, bounds[0], 1)
            case 2: (start, stop, step) = (bounds[0], bounds[1], 1)
            case 3 where bounds[2] != 0: (start, stop, step) = (bounds[0], bounds[1], bounds[2])
            default: throw error(.evaluation, "range() takes 1 to 3 integers (step not zero)", at: offset)
            }
            let span = Double(stop) - Double(start)
            guard span / Double(step) <= Double(Self.maximumSize) else {
                throw error(.evaluation, "range() of more than \(Self.maximumSize) numbers", at: offset)
            }
            return .array(Swift.stride(from: start, to: stop, by: step).map { .integer($0) })
        case "strftime_now":
            guard case .string(let format)? = args.positional.first else {
                throw error(.evaluation, "strftime_now() takes a format string", at: offset)
            }
            return .string(TemplateString(Self.strftime(format.text, now), derivedFrom: [.string(format)]))
        default:
            throw error(.unsupportedConstruct, "function '\(name)' is not supported", at: offset)
        }
    }

    private static func strftime(_ format: String, _ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [Int8](repeating: 0, count: 256)
        let count = Foundation.strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func callMethod(_ name: String, on value: TemplateValue, _ args: EvaluatedArguments, at offset: Int) throws -> TemplateValue {
        func stringArgument(_ position: Int) throws -> String? {
            switch args.argument(position, "") {
            case nil, .none?: return nil
            case .string(let text)?: return text.text
            case let other?: throw error(.evaluation, "\(name)() expects a string, not \(other.typeName)", at: offset)
            }
        }
        /// A result computed from the string and the arguments.
        func derived(_ result: String) -> TemplateValue {
            .string(TemplateString(result, derivedFrom: [value] + args.positional + Array(args.named.values)))
        }
        switch value {
        case .string(let string):
            let text = string.text
            switch name {
            case "strip": return derived(TemplateFilters.strip(text, characters: try stringArgument(0), leading: true, trailing: true))
            case "lstrip": return derived(TemplateFilters.strip(text, characters: try stringArgument(0), leading: true, trailing: false))
            case "rstrip": return derived(TemplateFilters.strip(text, characters: try stringArgument(0), leading: false, trailing: true))
            case "upper": return derived(text.uppercased())
            case "lower": return derived(text.lowercased())
            case "title": return derived(TemplateFilters.title(text))
            case "capitalize": return derived(TemplateFilters.capitalize(text))
            case "startswith", "endswith":
                let candidates: [TemplateValue]
                if case .array(let items)? = args.positional.first { candidates = items } else { candidates = args.positional }
                let matched = candidates.contains { candidate in
                    guard case .string(let affix) = candidate else { return false }
                    return name == "startswith" ? text.unicodeScalars.starts(with: affix.text.unicodeScalars)
                        : Array(text.unicodeScalars).reversed().starts(with: Array(affix.text.unicodeScalars).reversed())
                }
                return .boolean(matched)
            case "split":
                return .array(TemplateFilters.split(text, separator: try stringArgument(0)).map(derived))
            case "replace":
                guard let old = try stringArgument(0), let new = try stringArgument(1) else {
                    throw error(.evaluation, "replace() takes two strings", at: offset)
                }
                return derived(text.replacingOccurrences(of: old, with: new))
            case "join":
                guard case .array(let items)? = args.positional.first else { throw error(.evaluation, "join() takes a list", at: offset) }
                return .string(TemplateString.joined(items, separator: string))
            default: break
            }
        case .object(let object):
            switch name {
            case "items": return .array(object.keys.map { .array([.string(TemplateString($0)), object[$0]!]) })
            case "keys": return .array(object.keys.map { .string(TemplateString($0)) })
            case "values": return .array(object.keys.map { object[$0]! })
            case "get":
                guard case .string(let key)? = args.positional.first else { throw error(.evaluation, "get() takes a string key", at: offset) }
                return object[key.text] ?? (args.argument(1, "default") ?? .none)
            default: break
            }
        case .undefined(let what):
            throw error(.evaluation, "'\(what)' is undefined (calling '\(name)')", at: offset)
        default:
            break
        }
        throw error(.unsupportedConstruct, "method '\(name)' of \(value.typeName) is not supported", at: offset)
    }

    // MARK: Filters and tests

    private func applyFilter(_ name: String, to value: TemplateValue, arguments: EvaluatedArguments, at offset: Int) throws -> TemplateValue {
        try TemplateFilters.apply(name, to: value, arguments: arguments, interpreter: self, at: offset)
    }

    func applyTest(_ name: String, to value: TemplateValue, arguments: EvaluatedArguments, at offset: Int) throws -> Bool {
        let argument = arguments.argument(0, "value")
        switch name {
        case "defined": return value.isDefined
        case "undefined": return !value.isDefined
        case "none": if case .none = value { return true } else { return false }
        case "string": if case .string = value { return true } else { return false }
        case "boolean": if case .boolean = value { return true } else { return false }
        case "integer": if case .integer = value { return true } else { return false }
        case "float": if case .double = value { return true } else { return false }
        case "number":
            switch value {
            case .integer, .double: return true
            default: return false
            }
        case "mapping":
            switch value {
            case .object, .namespace: return true
            default: return false
            }
        case "iterable", "sequence":
            switch value {
            case .array, .object, .string: return true
            default: return false
            }
        case "callable": if case .function = value { return true } else { return false }
        case "true": if case .boolean(true) = value { return true } else { return false }
        case "false": if case .boolean(false) = value { return true } else { return false }
        case "even", "odd", "divisibleby":
            guard case .integer(let number) = value else {
                throw error(.evaluation, "test '\(name)' needs an integer, not \(value.typeName)", at: offset)
            }
            if name == "even" { return number % 2 == 0 }
            if name == "odd" { return number % 2 != 0 }
            guard case .integer(let divisor)? = argument, divisor != 0 else {
                throw error(.evaluation, "divisibleby needs a non-zero integer", at: offset)
            }
            return number % divisor == 0
        case "equalto", "eq", "sameas":
            guard let argument else { throw error(.evaluation, "test '\(name)' needs a value to compare with", at: offset) }
            return value.equals(argument)
        case "in":
            guard let argument else { throw error(.evaluation, "test 'in' needs a container", at: offset) }
            return try binary("in", value, argument, at: offset).isTruthy
        case "lower", "upper":
            guard case .string(let string) = value else { return false }
            let text = string.text
            return name == "lower" ? text == text.lowercased() : text == text.uppercased()
        default:
            throw error(.unsupportedConstruct, "test '\(name)' is not supported", at: offset)
        }
    }
}
