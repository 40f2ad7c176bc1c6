/// Recursive-descent parser for the Jinja subset chat templates use. Statements: `if`/`elif`/
/// `else`, `for` (with `else` and an `if` filter), `set` (plain, namespace attribute, block),
/// `macro`, and Hugging Face's `generation` block. Operator precedence follows Jinja: `if`-`else` <
/// `or` < `and` < `not` < comparisons and `in` < `+ -` < `~` < `* / // %` < `**` < unary minus
/// < postfix (`.x`, `[i]`, `(...)`, `|filter`, `is test`).
/// Anything else (`call`, `include`, `break`, ...) is an `unsupportedConstruct` error naming it.
struct TemplateParser {
    private let source: [UInt8]
    private var segments: [TemplateLexer.Segment]
    private var position = 0
    private var blockDepth = 0
    /// Macros defined so far: calls to them are allowed.
    private var macroNames: Set<String> = []

    /// Deeper nesting is refused: rendering recurses once per level, on small thread stacks.
    static let maximumNesting = 64

    /// Names the interpreter knows; checked here so an unsupported template fails when loaded.
    static let filters: Set<String> = [
        "trim", "length", "count", "upper", "lower", "title", "capitalize", "default", "d", "first", "last",
        "join", "string", "int", "float", "list", "tojson", "safe", "replace", "reverse", "selectattr",
        "rejectattr", "select", "reject", "map", "items", "abs", "unique", "sort", "indent", "escape", "e", "round", "sum", "min", "max",
    ]
    static let tests: Set<String> = [
        "defined", "undefined", "none", "string", "number", "integer", "float", "boolean", "mapping",
        "iterable", "sequence", "true", "false", "even", "odd", "divisibleby", "equalto", "eq", "sameas",
        "in", "callable", "lower", "upper",
    ]

    init(source: String) throws {
        var lexer = TemplateLexer(source: source)
        self.source = Array(source.utf8)
        segments = try lexer.segments()
    }

    private func error(_ code: TemplateError.Code, _ message: String, at offset: Int) -> TemplateError {
        let (line, column) = TemplateLexer.position(of: offset, in: source)
        return TemplateError(code, message, line: line, column: column)
    }

    mutating func parse() throws -> [TemplateNode] {
        let (nodes, end) = try parseNodes(until: [])
        if let end { throw error(.syntax, "'\(end.keyword)' without a matching opening tag", at: end.offset) }
        return nodes
    }

    private struct BlockEnd {
        var keyword: String
        var tokens: [TemplateToken]
        var offset: Int
    }

    /// Parses nodes until a statement whose keyword is in `terminators` (returned, consumed).
    private mutating func parseNodes(until terminators: Set<String>) throws -> ([TemplateNode], BlockEnd?) {
        var nodes: [TemplateNode] = []
        while position < segments.count {
            let segment = segments[position]
            position += 1
            switch segment {
            case .text(let text):
                nodes.append(.text(text))
            case .expression(let tokens, let start):
                var stream = TokenStream(tokens: tokens, tagOffset: start, source: source, macros: macroNames)
                let expression = try stream.parseExpression()
                try stream.expectEnd()
                nodes.append(.output(expression))
            case .statement(let tokens, let start):
                guard case .name(let keyword)? = tokens.first?.kind else {
                    throw error(.syntax, "statement tag without a keyword", at: start)
                }
                if terminators.contains(keyword) {
                    return (nodes, BlockEnd(keyword: keyword, tokens: Array(tokens.dropFirst()), offset: tokens[0].offset))
                }
                var stream = TokenStream(tokens: Array(tokens.dropFirst()), tagOffset: start, source: source, macros: macroNames)
                nodes.append(contentsOf: try parseStatement(keyword, offset: tokens[0].offset, &stream))
            }
        }
        return (nodes, nil)
    }

    private mutating func parseStatement(_ keyword: String, offset: Int, _ stream: inout TokenStream) throws -> [TemplateNode] {
        blockDepth += 1
        defer { blockDepth -= 1 }
        if blockDepth > Self.maximumNesting {
            throw error(.unsupportedConstruct, "blocks nested deeper than \(Self.maximumNesting) levels", at: offset)
        }
        switch keyword {
        case "if":
            return [try parseIf(&stream, offset: offset)]
        case "for":
            return [try parseFor(&stream, offset: offset)]
        case "set":
            return [try parseSet(&stream, offset: offset)]
        case "macro":
            return [try parseMacro(&stream, offset: offset)]
        case "generation":
            // Hugging Face marks assistant text for training masks; it renders its body.
            try stream.expectEnd()
            let (body, end) = try parseNodes(until: ["endgeneration"])
            guard end != nil else { throw error(.syntax, "'generation' is not closed with 'endgeneration'", at: offset) }
            return body
        case "elif", "else", "endif", "endfor", "endset", "endgeneration", "endmacro":
            throw error(.syntax, "'\(keyword)' without a matching opening tag", at: offset)
        default:
            throw error(.unsupportedConstruct, "statement '\(keyword)' is not supported", at: offset)
        }
    }

    private mutating func parseIf(_ stream: inout TokenStream, offset: Int) throws -> TemplateNode {
        var branches: [(condition: TemplateExpression, body: [TemplateNode])] = []
        var condition = try stream.parseExpression()
        try stream.expectEnd()
        while true {
            let (body, end) = try parseNodes(until: ["elif", "else", "endif"])
            branches.append((condition, body))
            guard let end else { throw error(.syntax, "'if' is not closed with 'endif'", at: offset) }
            switch end.keyword {
            case "elif":
                var next = TokenStream(tokens: end.tokens, tagOffset: end.offset, source: source, macros: macroNames)
                condition = try next.parseExpression()
                try next.expectEnd()
            case "else":
                try TokenStream(tokens: end.tokens, tagOffset: end.offset, source: source, macros: macroNames).expectEnd()
                let (otherwise, close) = try parseNodes(until: ["endif"])
                guard close != nil else { throw error(.syntax, "'if' is not closed with 'endif'", at: offset) }
                return .conditional(branches: branches, otherwise: otherwise)
            default:
                return .conditional(branches: branches, otherwise: [])
            }
        }
    }

    private mutating func parseFor(_ stream: inout TokenStream, offset: Int) throws -> TemplateNode {
        var targets = [try stream.expectName()]
        while stream.accept(symbol: ",") { targets.append(try stream.expectName()) }
        try stream.expect(keyword: "in")
        let iterable = try stream.parseExpression(allowConditional: false)
        var filter: TemplateExpression?
        if stream.accept(keyword: "if") { filter = try stream.parseExpression(allowConditional: false) }
        if stream.accept(keyword: "recursive") {
            throw error(.unsupportedConstruct, "recursive loops are not supported", at: offset)
        }
        try stream.expectEnd()
        let (body, end) = try parseNodes(until: ["else", "endfor"])
        guard let end else { throw error(.syntax, "'for' is not closed with 'endfor'", at: offset) }
        var otherwise: [TemplateNode] = []
        if end.keyword == "else" {
            let (elseBody, close) = try parseNodes(until: ["endfor"])
            guard close != nil else { throw error(.syntax, "'for' is not closed with 'endfor'", at: offset) }
            otherwise = elseBody
        }
        return .loop(TemplateLoop(targets: targets, iterable: iterable, filter: filter, body: body, otherwise: otherwise))
    }

    private mutating func parseMacro(_ stream: inout TokenStream, offset: Int) throws -> TemplateNode {
        let name = try stream.expectName()
        var parameters: [(name: String, defaultValue: TemplateExpression?)] = []
        try stream.expect(symbol: "(")
        while !stream.accept(symbol: ")") {
            if !parameters.isEmpty { try stream.expect(symbol: ",") }
            let parameter = try stream.expectName()
            parameters.append((parameter, stream.accept(symbol: "=") ? try stream.parseExpression() : nil))
            if stream.isAtEnd { throw error(.syntax, "macro parameters are not closed with ')'", at: offset) }
        }
        try stream.expectEnd()
        // Declared before its body so it may call itself (the interpreter bounds the depth).
        macroNames.insert(name)
        let (body, end) = try parseNodes(until: ["endmacro"])
        guard end != nil else { throw error(.syntax, "'macro' is not closed with 'endmacro'", at: offset) }
        return .macroDefinition(TemplateMacro(name: name, parameters: parameters, body: body))
    }

    private mutating func parseSet(_ stream: inout TokenStream, offset: Int) throws -> TemplateNode {
        let target = try stream.expectName()
        var attribute: String?
        if stream.accept(symbol: ".") { attribute = try stream.expectName() }
        if stream.isAtEnd && attribute == nil {
            let (body, end) = try parseNodes(until: ["endset"])
            guard end != nil else { throw error(.syntax, "'set' block is not closed with 'endset'", at: offset) }
            return .blockAssignment(target: target, body: body)
        }
        if stream.accept(symbol: ",") {
            throw error(.unsupportedConstruct, "assigning to several names in 'set' is not supported", at: offset)
        }
        try stream.expect(symbol: "=")
        let value = try stream.parseExpression()
        try stream.expectEnd()
        return .assignment(target: target, attribute: attribute, value: value)
    }
}

/// The tokens of one tag, with the expression grammar.
struct TokenStream {
    private let tokens: [TemplateToken]
    private let tagOffset: Int
    private let source: [UInt8]
    private let macros: Set<String>
    private var index = 0
    private var depth = 0

    init(tokens: [TemplateToken], tagOffset: Int, source: [UInt8], macros: Set<String>) {
        self.tokens = tokens
        self.tagOffset = tagOffset
        self.source = source
        self.macros = macros
    }

    var isAtEnd: Bool { index >= tokens.count }
    private var currentOffset: Int { index < tokens.count ? tokens[index].offset : tagOffset }

    private func error(_ code: TemplateError.Code, _ message: String, at offset: Int? = nil) -> TemplateError {
        let (line, column) = TemplateLexer.position(of: offset ?? currentOffset, in: source)
        return TemplateError(code, message, line: line, column: column)
    }

    private func describe(_ token: TemplateToken?) -> String {
        switch token?.kind {
        case .name(let name)?: return "'\(name)'"
        case .symbol(let symbol)?: return "'\(symbol)'"
        case .string?: return "a string"
        case .integer?, .float?: return "a number"
        case nil: return "the end of the tag"
        }
    }

    func expectEnd() throws {
        if !isAtEnd { throw error(.syntax, "unexpected \(describe(tokens[index])) in tag") }
    }

    mutating func accept(symbol: String) -> Bool {
        if index < tokens.count, tokens[index].kind == .symbol(symbol) {
            index += 1
            return true
        }
        return false
    }

    mutating func accept(keyword: String) -> Bool {
        if index < tokens.count, tokens[index].kind == .name(keyword) {
            index += 1
            return true
        }
        return false
    }

    private func peek(keyword: String, ahead: Int = 0) -> Bool {
        index + ahead < tokens.count && tokens[index + ahead].kind == .name(keyword)
    }

    mutating func expect(symbol: String) throws {
        guard accept(symbol: symbol) else {
            throw error(.syntax, "expected '\(symbol)', found \(describe(index < tokens.count ? tokens[index] : nil))")
        }
    }

    mutating func expect(keyword: String) throws {
        guard accept(keyword: keyword) else {
            throw error(.syntax, "expected '\(keyword)', found \(describe(index < tokens.count ? tokens[index] : nil))")
        }
    }

    mutating func expectName() throws -> String {
        guard index < tokens.count, case .name(let name) = tokens[index].kind else {
            throw error(.syntax, "expected a name, found \(describe(index < tokens.count ? tokens[index] : nil))")
        }
        index += 1
        return name
    }

    // MARK: Expressions, lowest precedence first.

    mutating func parseExpression(allowConditional: Bool = true) throws -> TemplateExpression {
        let offset = currentOffset
        let value = try parseOr()
        if depth == 0, value.depth > TemplateParser.maximumNesting {
            throw error(.unsupportedConstruct, "expression nested deeper than \(TemplateParser.maximumNesting) levels", at: offset)
        }
        guard allowConditional, accept(keyword: "if") else { return value }
        let condition = try parseOr()
        var otherwise: TemplateExpression?
        if accept(keyword: "else") { otherwise = try parseExpression() }
        return TemplateExpression(kind: .conditional(condition: condition, then: value, otherwise: otherwise), offset: offset)
    }

    /// Bounds the parser's own recursion (brackets, `not not ...`, `- - ...`).
    private mutating func enterNested() throws {
        depth += 1
        if depth > TemplateParser.maximumNesting {
            throw error(.unsupportedConstruct, "expression nested deeper than \(TemplateParser.maximumNesting) levels")
        }
    }

    private mutating func parseOr() throws -> TemplateExpression {
        var left = try parseAnd()
        while true {
            let offset = currentOffset
            guard accept(keyword: "or") else { return left }
            left = TemplateExpression(kind: .or(left, try parseAnd()), offset: offset)
        }
    }

    private mutating func parseAnd() throws -> TemplateExpression {
        var left = try parseNot()
        while true {
            let offset = currentOffset
            guard accept(keyword: "and") else { return left }
            left = TemplateExpression(kind: .and(left, try parseNot()), offset: offset)
        }
    }

    private mutating func parseNot() throws -> TemplateExpression {
        try enterNested()
        defer { depth -= 1 }
        let offset = currentOffset
        if accept(keyword: "not") { return TemplateExpression(kind: .not(try parseNot()), offset: offset) }
        return try parseComparison()
    }

    private mutating func parseComparison() throws -> TemplateExpression {
        var left = try parseAdditive()
        while true {
            let offset = currentOffset
            if accept(keyword: "in") {
                left = TemplateExpression(kind: .binary("in", left, try parseAdditive()), offset: offset)
            } else if peek(keyword: "not") && peek(keyword: "in", ahead: 1) {
                index += 2
                let test = TemplateExpression(kind: .binary("in", left, try parseAdditive()), offset: offset)
                left = TemplateExpression(kind: .not(test), offset: offset)
            } else if let op = acceptSymbol(in: ["==", "!=", "<", "<=", ">", ">="]) {
                left = TemplateExpression(kind: .binary(op, left, try parseAdditive()), offset: offset)
            } else {
                return left
            }
        }
    }

    private mutating func acceptSymbol(in symbols: Set<String>) -> String? {
        if index < tokens.count, case .symbol(let symbol) = tokens[index].kind, symbols.contains(symbol) {
            index += 1
            return symbol
        }
        return nil
    }

    private mutating func parseAdditive() throws -> TemplateExpression {
        var left = try parseConcatenation()
        while true {
            let offset = currentOffset
            guard let op = acceptSymbol(in: ["+", "-"]) else { return left }
            left = TemplateExpression(kind: .binary(op, left, try parseConcatenation()), offset: offset)
        }
    }

    private mutating func parseConcatenation() throws -> TemplateExpression {
        var left = try parseMultiplicative()
        while true {
            let offset = currentOffset
            guard accept(symbol: "~") else { return left }
            left = TemplateExpression(kind: .binary("~", left, try parseMultiplicative()), offset: offset)
        }
    }

    private mutating func parseMultiplicative() throws -> TemplateExpression {
        var left = try parsePower()
        while true {
            let offset = currentOffset
            guard let op = acceptSymbol(in: ["*", "/", "//", "%"]) else { return left }
            left = TemplateExpression(kind: .binary(op, left, try parsePower()), offset: offset)
        }
    }

    private mutating func parsePower() throws -> TemplateExpression {
        let left = try parseUnary()
        let offset = currentOffset
        guard accept(symbol: "**") else { return left }
        return TemplateExpression(kind: .binary("**", left, try parsePower()), offset: offset)
    }

    private mutating func parseUnary() throws -> TemplateExpression {
        try enterNested()
        defer { depth -= 1 }
        let offset = currentOffset
        if accept(symbol: "-") { return TemplateExpression(kind: .negate(try parseUnary()), offset: offset) }
        if accept(symbol: "+") { return try parseUnary() }
        return try parsePostfix(try parsePrimary())
    }

    private mutating func parsePostfix(_ base: TemplateExpression) throws -> TemplateExpression {
        var value = base
        while true {
            let offset = currentOffset
            if accept(symbol: ".") {
                value = TemplateExpression(kind: .attribute(value, try expectName()), offset: offset)
            } else if accept(symbol: "[") {
                value = try parseSubscript(value, offset: offset)
            } else if accept(symbol: "(") {
                if case .variable(let name) = value.kind, !TemplateInterpreter.globalFunctions.contains(name), !macros.contains(name) {
                    throw error(.unsupportedConstruct, "function '\(name)' is not supported", at: value.offset)
                }
                // A call is reported where its callee starts (`raise_exception(...)`).
                value = TemplateExpression(kind: .call(value, try parseArguments()), offset: value.offset)
            } else if accept(symbol: "|") {
                let name = try expectName()
                guard TemplateParser.filters.contains(name) else {
                    throw error(.unsupportedConstruct, "filter '\(name)' is not supported", at: offset)
                }
                let arguments = accept(symbol: "(") ? try parseArguments() : TemplateArguments()
                value = TemplateExpression(kind: .filter(value, name: name, arguments), offset: offset)
            } else if accept(keyword: "is") {
                let negated = accept(keyword: "not")
                let name = try expectName()
                guard TemplateParser.tests.contains(name) else {
                    throw error(.unsupportedConstruct, "test '\(name)' is not supported", at: offset)
                }
                var arguments = TemplateArguments()
                if accept(symbol: "(") {
                    arguments = try parseArguments()
                } else if index < tokens.count, startsTestArgument(tokens[index]) {
                    // `is divisibleby 3`, `is sameas false`: one argument without parentheses.
                    arguments.positional = [try parsePrimary()]
                }
                value = TemplateExpression(kind: .test(value, name: name, arguments, negated: negated), offset: offset)
            } else {
                return value
            }
        }
    }

    /// Jinja's rule for a test argument written without parentheses.
    private func startsTestArgument(_ token: TemplateToken) -> Bool {
        switch token.kind {
        case .name(let name): return !["and", "or", "if", "else", "in", "not", "is"].contains(name)
        case .symbol(let symbol): return symbol == "[" || symbol == "{"
        case .string, .integer, .float: return true
        }
    }

    private mutating func parseSubscript(_ base: TemplateExpression, offset: Int) throws -> TemplateExpression {
        var parts: [TemplateExpression?] = [nil]
        var sawColon = false
        while !accept(symbol: "]") {
            if accept(symbol: ":") {
                sawColon = true
                parts.append(nil)
                guard parts.count <= 3 else { throw error(.syntax, "a slice takes at most start:stop:step") }
            } else {
                guard parts[parts.count - 1] == nil else { throw error(.syntax, "expected ':' or ']' in subscript") }
                parts[parts.count - 1] = try parseExpression()
            }
            if isAtEnd { throw error(.syntax, "subscript is not closed with ']'") }
        }
        if !sawColon {
            guard let key = parts[0] else { throw error(.syntax, "empty subscript", at: offset) }
            return TemplateExpression(kind: .item(base, key), offset: offset)
        }
        while parts.count < 3 { parts.append(nil) }
        return TemplateExpression(kind: .slice(base, start: parts[0], stop: parts[1], step: parts[2]), offset: offset)
    }

    /// Arguments after an opening parenthesis, through the closing one.
    private mutating func parseArguments() throws -> TemplateArguments {
        var arguments = TemplateArguments()
        while !accept(symbol: ")") {
            if !arguments.positional.isEmpty || !arguments.named.isEmpty { try expect(symbol: ",") }
            if accept(symbol: ")") { break }
            if index + 1 < tokens.count, case .name(let name) = tokens[index].kind, tokens[index + 1].kind == .symbol("=") {
                index += 2
                arguments.named.append((name, try parseExpression()))
            } else {
                guard arguments.named.isEmpty else { throw error(.syntax, "positional argument after a named one") }
                arguments.positional.append(try parseExpression())
            }
            if isAtEnd { throw error(.syntax, "argument list is not closed with ')'") }
        }
        return arguments
    }

    private mutating func parsePrimary() throws -> TemplateExpression {
        let offset = currentOffset
        guard index < tokens.count else { throw error(.syntax, "expected an expression, found the end of the tag") }
        let token = tokens[index]
        index += 1
        switch token.kind {
        case .string(var text):
            // Adjacent string literals join, as in Python.
            while index < tokens.count, case .string(let more) = tokens[index].kind {
                text += more
                index += 1
            }
            return TemplateExpression(kind: .literal(.string(TemplateString(text))), offset: offset)
        case .integer(let value):
            return TemplateExpression(kind: .literal(.integer(value)), offset: offset)
        case .float(let value):
            return TemplateExpression(kind: .literal(.double(value)), offset: offset)
        case .name(let name):
            switch name {
            case "true", "True": return TemplateExpression(kind: .literal(.boolean(true)), offset: offset)
            case "false", "False": return TemplateExpression(kind: .literal(.boolean(false)), offset: offset)
            case "none", "None": return TemplateExpression(kind: .literal(.none), offset: offset)
            default: return TemplateExpression(kind: .variable(name), offset: offset)
            }
        case .symbol("("):
            let first = try parseExpression()
            if accept(symbol: ")") { return first }
            // A tuple: evaluated as a list.
            var items = [first]
            while accept(symbol: ",") {
                if accept(symbol: ")") { return TemplateExpression(kind: .list(items), offset: offset) }
                items.append(try parseExpression())
            }
            try expect(symbol: ")")
            return TemplateExpression(kind: .list(items), offset: offset)
        case .symbol("["):
            var items: [TemplateExpression] = []
            while !accept(symbol: "]") {
                if !items.isEmpty { try expect(symbol: ",") }
                if accept(symbol: "]") { break }
                items.append(try parseExpression())
                if isAtEnd { throw error(.syntax, "list is not closed with ']'") }
            }
            return TemplateExpression(kind: .list(items), offset: offset)
        case .symbol("{"):
            var entries: [(key: TemplateExpression, value: TemplateExpression)] = []
            while !accept(symbol: "}") {
                if !entries.isEmpty { try expect(symbol: ",") }
                if accept(symbol: "}") { break }
                let key = try parseExpression()
                try expect(symbol: ":")
                entries.append((key, try parseExpression()))
                if isAtEnd { throw error(.syntax, "dictionary is not closed with '}'") }
            }
            return TemplateExpression(kind: .dictionary(entries), offset: offset)
        default:
            throw error(.syntax, "expected an expression, found \(describe(token))", at: offset)
        }
    }
}
