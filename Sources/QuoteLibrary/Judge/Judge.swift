/// What a judge session answered.
public enum JudgeAnswer: Sendable {
    /// Structured output to validate (guided generation's JSON, or raw text until that lands).
    case json(String)
    /// Already validated scores (a guided-generation binding that decoded them itself).
    case scores(JudgeScores)
    /// The model declined to score.
    case refused(String)
}

/// Scores a draft in a session separate from the one that wrote it (same or another model).
/// Throws when the judge cannot serve (unavailable, transport error); cancellation is honoured.
public protocol Judge: Sendable {
    func judge(draft: String, locale: String) async throws -> JudgeAnswer
}
