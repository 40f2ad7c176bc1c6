/// How the next token is chosen. Temperature 0 (or top-k 1) is greedy: the argmax.
public struct SamplingOptions: Sendable, Equatable {
    public var temperature: Float
    /// Keep only the k most likely tokens; 0 keeps all.
    public var topK: Int
    /// Keep the smallest set of most likely tokens whose probability reaches p; 1 keeps all.
    public var topP: Float
    public var seed: UInt64

    public init(temperature: Float = 0.8, topK: Int = 40, topP: Float = 0.95, seed: UInt64 = 0) {
        self.temperature = temperature
        self.topK = topK
        self.topP = topP
        self.seed = seed
    }

    public static let greedy = SamplingOptions(temperature: 0, topK: 1, topP: 1, seed: 0)

    public var isGreedy: Bool { temperature <= 0 || topK == 1 }

    /// Checks the ranges, naming the bad option.
    public func validate() throws(LlamaError) {
        guard temperature.isFinite, temperature >= 0 else { throw LlamaError(.invalidRequest, "temperature \(temperature) must be 0 or more") }
        guard topK >= 0 else { throw LlamaError(.invalidRequest, "top-k \(topK) must be 0 (off) or more") }
        guard topP > 0, topP <= 1 else { throw LlamaError(.invalidRequest, "top-p \(topP) must be in (0, 1]") }
    }
}
