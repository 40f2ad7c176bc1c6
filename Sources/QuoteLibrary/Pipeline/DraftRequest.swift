/// What the pipeline asks the draft model for (Sources/QuoteLibrary/README.md, "The pipeline", step 2).
public struct DraftRequest: Equatable, Sendable {
    public let locale: String
    /// Optional steer for the line (a mood or theme, e.g. "morning courage").
    public let theme: String?
    /// How the prompt asks (instructions, or example lines to continue).
    public let style: DraftPromptStyle
    /// The prompt sent to the model, built by `DraftPrompt` in `style` around `examples`.
    public let instructions: String
    /// The example lines the prompt shows: a draft that copies one is rejected.
    public let examples: [String]
    public let temperature: Double
    public let maximumTokens: Int
    public let seed: UInt64?
    /// The side to ask: nil lets the routing choose; `.secondary` after an escalation.
    public let side: DraftSide?

    public static let productionTemperature = 0.7
    /// Room for the longest line the draft pattern admits to be finished by the mask: at 40, 22 of
    /// SmolLM2's 168 English drafts in `tandem eval` (README.md, "Measured on the real local
    /// model") ran out inside the line, most in a chain of short tokens ("it's'thesti'mica"); at 64,
    /// 10 did.
    public static let productionMaximumTokens = 64

    public init(locale: String, theme: String? = nil, seed: UInt64? = nil, side: DraftSide? = nil,
                style: DraftPromptStyle = .instructions) {
        self.locale = locale
        self.theme = theme
        self.style = style
        self.examples = DraftPrompt.examples(style, locale: locale, seed: seed)
        self.instructions = DraftPrompt.text(locale: locale, theme: theme, examples: examples)
        self.temperature = Self.productionTemperature
        self.maximumTokens = Self.productionMaximumTokens
        self.seed = seed
        self.side = side
    }
}
