import Foundation

/// Why a judge answer could not be used.
public struct JudgeError: Error, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable { case malformed, refused, unavailable }
    public let code: Code
    public let message: String
    public init(_ code: Code, _ message: String) { (self.code, self.message) = (code, message) }
    public var description: String { "judge [\(code.rawValue)]: \(message)" }
}
