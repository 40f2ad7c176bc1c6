/// A chat template that cannot be parsed or rendered, with the construct and where it is.
public struct TemplateError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable {
        /// The text is not valid template syntax (unclosed tag, unexpected token, ...).
        case syntax
        /// Valid Jinja, but outside the subset this interpreter implements (named in the message).
        case unsupportedConstruct
        /// An operation failed while rendering (wrong types, undefined variable, bad index).
        case evaluation
        /// The template itself refused the input (`raise_exception`).
        case raisedByTemplate
    }

    public let code: Code
    public let message: String
    /// 1-based line and column in the template source; 0 when not tied to a position.
    public let line: Int
    public let column: Int

    public init(_ code: Code, _ message: String, line: Int = 0, column: Int = 0) {
        self.code = code
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String {
        line > 0 ? "chat template \(code.rawValue) at line \(line), column \(column): \(message)"
                 : "chat template \(code.rawValue): \(message)"
    }
}
