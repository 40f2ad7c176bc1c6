/// The wire protocol a model speaks.
public enum DialectKind: String, Hashable, Sendable, CaseIterable {
    case gemini, openai

    var defaultBaseURL: String {
        switch self {
        case .gemini: "https://generativelanguage.googleapis.com/v1beta"
        case .openai: "https://api.openai.com/v1"
        }
    }
    var defaultKeyVariable: String {
        switch self {
        case .gemini: "GEMINI_API_KEY"
        case .openai: "OPENAI_API_KEY"
        }
    }
    var defaultEmbeddingModel: String {
        switch self {
        case .gemini: "gemini-embedding-001"
        case .openai: "text-embedding-3-small"
        }
    }
    var defaultEmbeddingDimensions: Int {
        switch self {
        case .gemini: 3072
        case .openai: 1536
        }
    }
}
