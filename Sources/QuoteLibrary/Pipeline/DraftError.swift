/// Why a draft could not be written at all.
public struct DraftError: Error, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable { case unavailable, failed }
    public let code: Code
    public let message: String
    public init(_ code: Code, _ message: String) { (self.code, self.message) = (code, message) }
    public var description: String { "draft [\(code.rawValue)]: \(message)" }
}
