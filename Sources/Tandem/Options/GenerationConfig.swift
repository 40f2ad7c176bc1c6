/// Options for a cloud model, named as in Firebase AI Logic's `GenerationConfig`. There is no
/// seed (the cloud APIs do not promise one). `nil` leaves the service's default.
public struct GenerationConfig: Hashable, Sendable {
    public var temperature: Float?
    public var topP: Float?
    public var topK: Int?
    public var maxOutputTokens: Int?
    public var stopSequences: [String]?
    public var thinkingConfig: ThinkingConfig?

    public init(
        temperature: Float? = nil, topP: Float? = nil, topK: Int? = nil, maxOutputTokens: Int? = nil,
        stopSequences: [String]? = nil, thinkingConfig: ThinkingConfig? = nil
    ) {
        self.temperature = temperature
        self.topP = topP
        self.topK = topK
        self.maxOutputTokens = maxOutputTokens
        self.stopSequences = stopSequences
        self.thinkingConfig = thinkingConfig
    }

    /// The ABI options a cloud backend receives.
    public var backendOptions: BackendOptions {
        BackendOptions(
            temperature: temperature, topP: topP, topK: topK, maxTokens: maxOutputTokens, stopSequences: stopSequences,
            thinkingLevel: thinkingConfig?.thinkingLevel, thinkingBudget: thinkingConfig?.thinkingBudget)
    }
}

/// How much a cloud model may think before answering: a level or a token budget, not both.
public struct ThinkingConfig: Hashable, Sendable {
    public var thinkingBudget: Int?
    public var thinkingLevel: ThinkingLevel?

    /// `budget` in tokens; -1 lets the model decide, 0 turns thinking off.
    public init(thinkingBudget budget: Int) {
        self.thinkingBudget = budget
        self.thinkingLevel = nil
    }

    public init(thinkingLevel level: ThinkingLevel) {
        self.thinkingBudget = nil
        self.thinkingLevel = level
    }
}
