import CTandemABI

/// Which side a model stands for.
public enum ModelKind: String, Hashable, Sendable, CaseIterable {
    case local, cloud, test

    public var cValue: tandem_kind {
        switch self {
        case .local: TANDEM_KIND_LOCAL
        case .cloud: TANDEM_KIND_CLOUD
        case .test: TANDEM_KIND_TEST
        }
    }
    public init?(cValue: tandem_kind) {
        guard let kind = Self.allCases.first(where: { $0.cValue == cValue }) else { return nil }
        self = kind
    }
}

/// What a model can do (the ABI's capability flags).
public struct ModelCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let streaming = ModelCapabilities(rawValue: TANDEM_CAP_STREAMING)
    public static let guidedJSON = ModelCapabilities(rawValue: TANDEM_CAP_GUIDED_JSON)
    public static let tools = ModelCapabilities(rawValue: TANDEM_CAP_TOOLS)
    public static let embeddings = ModelCapabilities(rawValue: TANDEM_CAP_EMBEDDINGS)
    public static let tokenCounting = ModelCapabilities(rawValue: TANDEM_CAP_TOKEN_COUNTING)
    public static let concurrentCalls = ModelCapabilities(rawValue: TANDEM_CAP_CONCURRENT_CALLS)
    public static let thinking = ModelCapabilities(rawValue: TANDEM_CAP_THINKING)
    public static let deterministic = ModelCapabilities(rawValue: TANDEM_CAP_DETERMINISTIC)
    /// Embeds but never generates (a sentence encoder); routing modes pass it over.
    public static let embeddingsOnly = ModelCapabilities(rawValue: TANDEM_CAP_EMBEDDINGS_ONLY)

    /// Stable names, for `tandem backends` and JSON output.
    public static let names: [(ModelCapabilities, String)] = [
        (.streaming, "streaming"), (.guidedJSON, "guidedJSON"), (.tools, "tools"), (.embeddings, "embeddings"),
        (.tokenCounting, "tokenCounting"), (.concurrentCalls, "concurrentCalls"), (.thinking, "thinking"),
        (.deterministic, "deterministic"), (.embeddingsOnly, "embeddingsOnly"),
    ]

    public var names: [String] { Self.names.filter { contains($0.0) }.map(\.1) }
}

/// Identity of an opened model (the ABI's `tandem_model_info`).
public struct ModelInfo: Hashable, Sendable {
    public var id: String
    public var displayName: String
    public var kind: ModelKind
    public var capabilities: ModelCapabilities
    /// Tokens; 0 when unknown.
    public var contextLength: Int
    /// 0 when embeddings are not supported.
    public var embeddingDimensions: Int

    public init(id: String, displayName: String, kind: ModelKind, capabilities: ModelCapabilities, contextLength: Int, embeddingDimensions: Int) {
        self.id = id
        self.displayName = displayName
        self.kind = kind
        self.capabilities = capabilities
        self.contextLength = contextLength
        self.embeddingDimensions = embeddingDimensions
    }
}
