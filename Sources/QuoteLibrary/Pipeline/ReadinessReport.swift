/// Readiness before any session is made (Sources/QuoteLibrary/README.md, "The pipeline", step 1).
public struct ReadinessReport: Codable, Equatable, Sendable {
    public var primary: SideAvailability
    public var secondary: SideAvailability
    public var judge: SideAvailability
    public var embedder: SideAvailability

    public init(primary: SideAvailability, secondary: SideAvailability, judge: SideAvailability, embedder: SideAvailability) {
        (self.primary, self.secondary, self.judge, self.embedder) = (primary, secondary, judge, embedder)
    }

    /// A draft can be written when either model side can serve.
    public var canDraft: Bool { primary.isAvailable || secondary.isAvailable }
}
