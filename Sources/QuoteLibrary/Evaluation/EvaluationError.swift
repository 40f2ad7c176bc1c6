import Foundation

/// A protocol or report problem, naming the file and what is wrong.
public struct EvaluationError: Error, CustomStringConvertible, Sendable {
    public let code = "evaluation"
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
