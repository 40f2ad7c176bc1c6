/// What the pipeline asks the draft model for (DESIGN §6 step 2).
public struct DraftRequest: Equatable, Sendable {
    public let locale: String
    /// Optional steer for the line (a mood or theme, e.g. "morning courage").
    public let theme: String?
    /// The instructions sent to the model, built by `DraftPrompt`.
    public let instructions: String
    public let temperature: Double
    public let maximumTokens: Int
    public let seed: UInt64?

    public static let productionTemperature = 0.7
    public static let productionMaximumTokens = 40

    public init(locale: String, theme: String? = nil, seed: UInt64? = nil) {
        self.locale = locale
        self.theme = theme
        self.instructions = DraftPrompt.instructions(locale: locale, theme: theme)
        self.temperature = Self.productionTemperature
        self.maximumTokens = Self.productionMaximumTokens
        self.seed = seed
    }
}

/// The draft model's answer.
public enum DraftAnswer: Equatable, Sendable {
    case draft(text: String, modelVersion: String)
    /// The model declined (safety, policy); recorded as the `refused` branch.
    case refused(reason: String, modelVersion: String?)
}

/// Why a draft could not be written at all.
public struct DraftError: Error, CustomStringConvertible, Sendable {
    public enum Code: String, Sendable { case unavailable, failed }
    public let code: Code
    public let message: String
    public init(_ code: Code, _ message: String) { (self.code, self.message) = (code, message) }
    public var description: String { "draft [\(code.rawValue)]: \(message)" }
}

/// Writes one draft for a request. Implementations honour task cancellation (the budget cancels
/// them) and may report partial text while streaming; partial text is interface text only.
public protocol DraftWriter: Sendable {
    func write(_ request: DraftRequest, partial: @escaping @Sendable (String) -> Void) async throws -> DraftAnswer
}
