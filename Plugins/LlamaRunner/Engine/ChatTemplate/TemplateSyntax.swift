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

struct TemplateArguments {
    var positional: [TemplateExpression] = []
    var named: [(name: String, value: TemplateExpression)] = []
}
