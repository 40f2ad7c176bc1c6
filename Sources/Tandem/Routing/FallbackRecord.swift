/// What happened to the primary for one response: was it tried, and why did it not serve.
public struct FallbackRecord: Hashable, Sendable {
    /// The primary's backend id.
    public var primaryID: String
    /// True when the primary was called (it served, or failed before any output).
    public var primaryTried: Bool
    /// Why the primary did not serve, or nil when it did.
    public var reason: RoutingReason?

    public init(primaryID: String, primaryTried: Bool, reason: RoutingReason?) {
        self.primaryID = primaryID
        self.primaryTried = primaryTried
        self.reason = reason
    }

    /// True when the secondary served.
    public var didFallBack: Bool { reason != nil }
}
