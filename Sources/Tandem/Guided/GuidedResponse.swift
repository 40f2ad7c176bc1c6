import GuidedJSON

/// A finished guided answer: the typed value, the validated document it was decoded from, and
/// the response (JSON text, serving backend, model version, fallback record, usage, tool calls).
public struct GuidedResponse<Content> {
    public var content: Content
    /// The validated document.
    public var rawContent: GeneratedContent
    public var response: Response

    public init(content: Content, rawContent: GeneratedContent, response: Response) {
        self.content = content
        self.rawContent = rawContent
        self.response = response
    }

    /// The backend id (from the config) that served the final turn.
    public var servedBy: String { response.servedBy }
}

extension GuidedResponse: Sendable where Content: Sendable {}
