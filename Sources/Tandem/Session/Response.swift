/// A finished answer: its text, which backend served it and why, and what it cost.
/// Named after Foundation Models' / Firebase AI Logic's `Response`.
public struct Response: Hashable, Sendable {
    /// What the serving model said.
    public struct RawResponse: Hashable, Sendable {
        /// The serving model's own version string (the cloud's reported version, the local
        /// model's id derived from its file).
        public var modelVersion: String
        public var finishReason: FinishReason

        public init(modelVersion: String, finishReason: FinishReason) {
            self.modelVersion = modelVersion
            self.finishReason = finishReason
        }
    }

    public var content: String
    public var rawResponse: RawResponse
    /// The backend id (from the config) that served.
    public var servedBy: String
    /// What happened to the primary.
    public var fallback: FallbackRecord
    public var usage: Usage
    /// Tool calls the model made, in order.
    public var toolCalls: [ToolCall]

    public init(
        content: String, rawResponse: RawResponse, servedBy: String, fallback: FallbackRecord, usage: Usage,
        toolCalls: [ToolCall] = []
    ) {
        self.content = content
        self.rawResponse = rawResponse
        self.servedBy = servedBy
        self.fallback = fallback
        self.usage = usage
        self.toolCalls = toolCalls
    }
}
