import Foundation

/// The scores a generated quote was accepted with.
public struct QuoteScores: Codable, Equatable, Sendable {
    public var judge: JudgeScores
    /// "model" when the judge session scored it, otherwise why the deterministic fallback stood in.
    public var judgeSource: String
    public var distinctiveness: Double

    public init(judge: JudgeScores, judgeSource: String, distinctiveness: Double) {
        (self.judge, self.judgeSource, self.distinctiveness) = (judge, judgeSource, distinctiveness)
    }
}
