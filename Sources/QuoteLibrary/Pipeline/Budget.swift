/// Time budgets (Sources/QuoteLibrary/README.md, "Thresholds"): foreground 45 s, voice 20 s,
/// background batch 120 s (one budget for all candidates of the batch). On expiry the generation is
/// cancelled and nothing is stored.
public struct Budget: Equatable, Sendable {
    public enum Kind: String, Codable, CaseIterable, Sendable { case foreground, voice, batch }

    public let kind: Kind
    public let limit: Duration

    public static let foreground = Budget(kind: .foreground, limit: .seconds(45))
    public static let voice = Budget(kind: .voice, limit: .seconds(20))
    public static let batch = Budget(kind: .batch, limit: .seconds(120))

    public static func standard(_ kind: Kind) -> Budget {
        switch kind {
        case .foreground: return .foreground
        case .voice: return .voice
        case .batch: return .batch
        }
    }

    /// A budget of this kind with another limit (evaluation runs against a fast fake).
    public init(kind: Kind, limit: Duration) {
        self.kind = kind
        self.limit = limit
    }
}
