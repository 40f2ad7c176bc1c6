import TandemBridge

/// How a generation ended, from the server's side.
public struct GenerationOutcome: Hashable, Sendable {
    public var finish: FinishReason
    public var modelVersion: String
    public var usage: Usage?

    public init(finish: FinishReason, modelVersion: String, usage: Usage?) {
        self.finish = finish
        self.modelVersion = modelVersion
        self.usage = usage
    }
}
