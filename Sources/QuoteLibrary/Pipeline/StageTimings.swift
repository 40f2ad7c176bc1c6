/// Milliseconds spent in each pipeline stage of one attempt; nil for a stage the attempt did
/// not reach. `gates` is the deterministic gate and the register (with the embedding of a draft
/// the gate rejects, read for its cause: `RegisterStep.cause`); `persist` runs from
/// the transaction's start to the writing of the run row (the commit follows it, so it is not
/// included).
public struct StageTimings: Codable, Equatable, Sendable {
    public enum Stage: String, CaseIterable, Codable, Sendable {
        case readiness, draft, gates, novelty, judge, distinctiveness, persist
    }

    private var milliseconds: [Stage: Int] = [:]

    public init() {}

    public subscript(stage: Stage) -> Int? {
        get { milliseconds[stage] }
        set { milliseconds[stage] = newValue }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for stage in Stage.allCases {
            milliseconds[stage] = try container.decodeIfPresent(Int.self, forKey: Key(stage))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for stage in Stage.allCases { try container.encodeIfPresent(milliseconds[stage], forKey: Key(stage)) }
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ stage: Stage) { stringValue = stage.rawValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
