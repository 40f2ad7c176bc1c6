/// Scores a draft in a session separate from the one that wrote it (same or another model).
/// Throws when the judge cannot serve (unavailable, transport error); cancellation is honoured.
public protocol Judge: Sendable {
    func judge(draft: String, locale: String) async throws -> JudgeAnswer
}
