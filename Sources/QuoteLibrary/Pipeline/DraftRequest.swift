/// What the pipeline asks the draft model for (Sources/QuoteLibrary/README.md, "The pipeline", step 2).
public struct DraftRequest: Equatable, Sendable {
    public let locale: String
    /// Optional steer for the line (a mood or theme, e.g. "morning courage").
    public let theme: String?
    /// The instructions sent to the model, built by `DraftPrompt`.
    public let instructions: String
    public let temperature: Double
    public let maximumTokens: Int
    public let seed: UInt64?
    /// The side to ask: nil lets the routing choose; `.secondary` after an escalation.
    public let side: DraftSide?

    public static let productionTemperature = 0.7
    public static let productionMaximumTokens = 40

    public init(locale: String, theme: String? = nil, seed: UInt64? = nil, side: DraftSide? = nil) {
        self.locale = locale
        self.theme = theme
        self.instructions = DraftPrompt.instructions(locale: locale, theme: theme)
        self.temperature = Self.productionTemperature
        self.maximumTokens = Self.productionMaximumTokens
        self.seed = seed
        self.side = side
    }
}
