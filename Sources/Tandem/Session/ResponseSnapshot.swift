/// The state of a streamed answer so far: each snapshot holds the whole text up to now.
/// The last snapshot of a stream carries the finished `response`.
public struct ResponseSnapshot: Hashable, Sendable {
    /// All text so far.
    public var content: String
    /// The backend id producing it.
    public var servedBy: String
    /// What happened to the primary (settled before the first snapshot).
    public var fallback: FallbackRecord
    /// Set on the last snapshot only: the finished response with model version and usage.
    public var response: Response?
}
