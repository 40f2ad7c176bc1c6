/// One gate's verdict on one draft.
public struct GateResult: Codable, Equatable, Sendable {
    public let gate: GateName
    public let passed: Bool
    /// Why it failed, or a note on a pass that proved less than usual (e.g. novelty not proven).
    public let reason: String?
    /// The measured value where the gate has one (word count, language confidence, similarity, scores).
    public let score: Double?

    public init(gate: GateName, passed: Bool, reason: String? = nil, score: Double? = nil) {
        (self.gate, self.passed, self.reason, self.score) = (gate, passed, reason, score)
    }

    private enum CodingKeys: String, CodingKey { case gate, passed, reason, score }

    /// `reason` and `score` are always present, as null when absent (the `check --json` contract).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(gate, forKey: .gate)
        try container.encode(passed, forKey: .passed)
        try container.encode(reason, forKey: .reason)
        try container.encode(score, forKey: .score)
    }

    static func pass(_ gate: GateName, score: Double? = nil, note: String? = nil) -> GateResult {
        GateResult(gate: gate, passed: true, reason: note, score: score)
    }

    static func fail(_ gate: GateName, _ reason: String, score: Double? = nil) -> GateResult {
        GateResult(gate: gate, passed: false, reason: reason, score: score)
    }
}
