/// What a judge session answered.
public enum JudgeAnswer: Sendable {
    /// Structured output to validate (guided generation's JSON, or raw text until that lands).
    case json(String)
    /// Already validated scores (a guided-generation binding that decoded them itself).
    case scores(JudgeScores)
    /// The model declined to score.
    case refused(String)
}
