import CTandemABI

/// How the next token is chosen.
public enum SamplingMode: String, Hashable, Sendable, CaseIterable {
    case greedy
    /// Sample among the `topK` most likely tokens.
    case topK = "top-k"
    /// Sample within cumulative probability `topP`.
    case topP = "top-p"
}

public enum ThinkingLevel: String, Hashable, Sendable, CaseIterable {
    case minimal, low, medium, high
}

/// The options one backend receives for one generation (the ABI's `tandem_options`).
/// `nil` means "not set: the backend's default".
public struct BackendOptions: Hashable, Sendable {
    public var sampling: SamplingMode?
    public var temperature: Float?
    public var topP: Float?
    public var topK: Int?
    public var seed: UInt64?
    public var maxTokens: Int?
    public var stopSequences: [String]?
    public var thinkingLevel: ThinkingLevel?
    /// Tokens; -1 = dynamic, 0 = off.
    public var thinkingBudget: Int?
    /// JSON Schema text the response must satisfy.
    public var responseSchema: String?
    /// Backend-specific knobs with namespaced keys (`"llama.threads"`).
    public var extras: [String: String]

    public init(
        sampling: SamplingMode? = nil, temperature: Float? = nil, topP: Float? = nil, topK: Int? = nil,
        seed: UInt64? = nil, maxTokens: Int? = nil, stopSequences: [String]? = nil,
        thinkingLevel: ThinkingLevel? = nil, thinkingBudget: Int? = nil, responseSchema: String? = nil,
        extras: [String: String] = [:]
    ) {
        self.sampling = sampling
        self.temperature = temperature
        self.topP = topP
        self.topK = topK
        self.seed = seed
        self.maxTokens = maxTokens
        self.stopSequences = stopSequences
        self.thinkingLevel = thinkingLevel
        self.thinkingBudget = thinkingBudget
        self.responseSchema = responseSchema
        self.extras = extras
    }

    /// The first value that is out of range, named, or nil when all are valid. Checked by the
    /// host before any backend is called and by plugins on what they receive.
    public func validationProblem() -> String? {
        if let t = temperature, !(t >= 0) || !t.isFinite { return "temperature must be >= 0, got \(t)" }
        if let p = topP, !(p > 0 && p <= 1) { return "top-p must be in (0, 1], got \(p)" }
        if let k = topK, k < 1 || k > Int(UInt32.max) { return "top-k must be >= 1, got \(k)" }
        if let n = maxTokens, n < 1 || n > Int(UInt32.max) { return "max tokens must be >= 1, got \(n)" }
        if let b = thinkingBudget, b < -1 || b > Int(Int32.max) { return "thinking budget must be >= -1, got \(b)" }
        if let stops = stopSequences, stops.contains(where: \.isEmpty) { return "stop sequences must not be empty" }
        return nil
    }
}

extension ThinkingLevel {
    var cValue: tandem_thinking_level {
        switch self {
        case .minimal: TANDEM_THINKING_MINIMAL
        case .low: TANDEM_THINKING_LOW
        case .medium: TANDEM_THINKING_MEDIUM
        case .high: TANDEM_THINKING_HIGH
        }
    }
    init?(cValue: tandem_thinking_level) {
        guard let level = Self.allCases.first(where: { $0.cValue == cValue }) else { return nil }
        self = level
    }
}

extension SamplingMode {
    var cValue: tandem_sampling {
        switch self {
        case .greedy: TANDEM_SAMPLING_GREEDY
        case .topK: TANDEM_SAMPLING_TOP_K
        case .topP: TANDEM_SAMPLING_TOP_P
        }
    }
    init?(cValue: tandem_sampling) {
        guard let mode = Self.allCases.first(where: { $0.cValue == cValue }) else { return nil }
        self = mode
    }
}
