import GuidedJSON
import JSONModel

/// A guided answer while it is being generated, from the incremental parser: every field
/// complete so far plus the string being written. The last snapshot of a stream is complete and
/// carries the validated, decoded `response`.
public struct GuidedSnapshot<Content> {
    /// The partial document; nil until its first container or string has started.
    public var partial: GeneratedContent?
    /// Where the value being written goes; nil when complete or not yet started.
    public var activePath: JSONPath?
    /// The document is syntactically complete (validation comes with `response`).
    public var isComplete: Bool
    /// The backend id producing it.
    public var servedBy: String
    /// What happened to the primary.
    public var fallback: FallbackRecord
    /// Set on the last snapshot only.
    public var response: GuidedResponse<Content>?

    public init(
        partial: GeneratedContent?, activePath: JSONPath?, isComplete: Bool, servedBy: String, fallback: FallbackRecord,
        response: GuidedResponse<Content>? = nil
    ) {
        self.partial = partial
        self.activePath = activePath
        self.isComplete = isComplete
        self.servedBy = servedBy
        self.fallback = fallback
        self.response = response
    }
}

extension GuidedSnapshot: Sendable where Content: Sendable {}
