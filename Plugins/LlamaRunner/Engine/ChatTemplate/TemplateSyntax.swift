/// The parsed form of a template: nodes (text, output, control flow) and expressions. Each
/// expression keeps its byte offset so evaluation errors can point at the source.
indirect enum TemplateNode {
    case text(String)
    case output(TemplateExpression)
    case conditional(branches: [(condition: TemplateExpression, body: [TemplateNode])], otherwise: [TemplateNode])
    case loop(TemplateLoop)
    /// `{% set name = value %}` or `{% set namespace.attribute = value %}`.
    case assignment(target: String, attribute: String?, value: TemplateExpression)
    /// `{% set name %}...{% endset %}`.
    case blockAssignment(target: String, body: [TemplateNode])
    /// `{% macro name(parameters) %}...{% endmacro %}`.
    case macroDefinition(TemplateMacro)
}

/// A macro: a named piece of template called like a function; the call renders its body.
final class TemplateMacro {
    let name: String
    /// Parameter names with their default values.
    let parameters: [(name: String, defaultValue: TemplateExpression?)]
    let body: [TemplateNode]

    init(name: String, parameters: [(name: String, defaultValue: TemplateExpression?)], body: [TemplateNode]) {
        self.name = name
        self.parameters = parameters
        self.body = body
    }
}

struct TemplateLoop {
    /// One name, or several to unpack each item (`for key, value in ...`).
    var targets: [String]
    var iterable: TemplateExpression
    var filter: TemplateExpression?
    var body: [TemplateNode]
    var otherwise: [TemplateNode]
}

struct TemplateExpression {
    indirect enum Kind {
        case literal(TemplateValue)
        case variable(String)
        case list([TemplateExpression])
        case dictionary([(key: TemplateExpression, value: TemplateExpression)])
        case attribute(TemplateExpression, String)
        case item(TemplateExpression, TemplateExpression)
        case slice(TemplateExpression, start: TemplateExpression?, stop: TemplateExpression?, step: TemplateExpression?)
        case call(TemplateExpression, TemplateArguments)
        case filter(TemplateExpression, name: String, TemplateArguments)
        case test(TemplateExpression, name: String, TemplateArguments, negated: Bool)
        case not(TemplateExpression)
        case negate(TemplateExpression)
        case and(TemplateExpression, TemplateExpression)
        case or(TemplateExpression, TemplateExpression)
        case binary(String, TemplateExpression, TemplateExpression)
        case conditional(condition: TemplateExpression, then: TemplateExpression, otherwise: TemplateExpression?)
    }

    var kind: Kind
    var offset: Int
}

extension TemplateExpression {
    /// Nesting depth, computed without recursion: a long `a + b + c ...` chain parses flat but
    /// evaluates recursively, so the parser bounds this too.
    var depth: Int {
        var deepest = 0
        var pending: [(TemplateExpression, Int)] = [(self, 1)]
        while let (expression, level) = pending.popLast() {
            deepest = max(deepest, level)
            pending.append(contentsOf: expression.children.map { ($0, level + 1) })
        }
        return deepest
    }

    private var children: [TemplateExpression] {
        switch kind {
        case .literal, .variable: return []
        case .list(let items): return items
        case .dictionary(let entries): return entries.flatMap { [$0.key, $0.value] }
        case .attribute(let base, _), .not(let base), .negate(let base): return [base]
        case .item(let base, let key): return [base, key]
        case .slice(let base, let start, let stop, let step): return [base] + [start, stop, step].compactMap { $0 }
        case .call(let base, let arguments), .filter(let base, _, let arguments), .test(let base, _, let arguments, _):
            return [base] + arguments.positional + arguments.named.map(\.value)
        case .and(let left, let right), .or(let left, let right), .binary(_, let left, let right): return [left, right]
        case .conditional(let condition, let then, let otherwise): return [condition, then] + [otherwise].compactMap { $0 }
        }
    }
}

struct TemplateArguments {
    var positional: [TemplateExpression] = []
    var named: [(name: String, value: TemplateExpression)] = []
}
