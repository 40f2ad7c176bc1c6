/// A tool's error that ended a request (`TandemError.Code.toolFailed`): which call, and what
/// the tool threw, unchanged.
public struct ToolFailure: Hashable, Sendable, CustomStringConvertible {
    public var toolName: String
    public var callID: String
    public var underlyingError: any Error

    public init(toolName: String, callID: String, underlyingError: any Error) {
        self.toolName = toolName
        self.callID = callID
        self.underlyingError = underlyingError
    }

    /// Errors are compared by their description: `any Error` has no equality of its own.
    public static func == (lhs: ToolFailure, rhs: ToolFailure) -> Bool {
        lhs.toolName == rhs.toolName && lhs.callID == rhs.callID && lhs.description == rhs.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(toolName)
        hasher.combine(callID)
        hasher.combine(String(describing: underlyingError))
    }

    public var description: String { "tool \(toolName) (call \(callID)) failed: \(underlyingError)" }
}
