/// Why a model call could not be served, with the numbers that explain it.
public struct LlamaError: Error, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// Prompt plus requested tokens exceed the session's context.
        case exceededContextWindowSize
        /// A token id outside the vocabulary.
        case invalidToken
        /// The caller's cancellation closure returned true.
        case cancelled
        /// An empty prompt or an option out of range.
        case invalidRequest
    }

    public let code: Code
    public let detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
