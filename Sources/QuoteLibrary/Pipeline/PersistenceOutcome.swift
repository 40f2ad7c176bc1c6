/// What happened to the database for one attempt.
public enum PersistenceOutcome: Codable, Equatable, Sendable, CustomStringConvertible {
    case stored
    case notAttempted
    case failed(String)

    public var description: String {
        switch self {
        case .stored: return "stored"
        case .notAttempted: return "not attempted"
        case .failed(let why): return "failed: \(why)"
        }
    }

    /// Parses the stored spelling (`description`).
    init(stored text: String) {
        switch text {
        case "stored": self = .stored
        case "not attempted": self = .notAttempted
        default: self = .failed(String(text.dropFirst("failed: ".count)))
        }
    }

    public init(from decoder: Decoder) throws {
        self.init(stored: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
