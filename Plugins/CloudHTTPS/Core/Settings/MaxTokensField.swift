/// Which field carries the response-token cap to an OpenAI-compatible server.
public enum MaxTokensField: String, Hashable, Sendable, CaseIterable {
    case maxCompletionTokens = "max_completion_tokens"
    /// Deprecated by OpenAI, still what some compatible servers read.
    case maxTokens = "max_tokens"
}
