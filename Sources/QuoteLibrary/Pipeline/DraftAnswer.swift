/// The draft model's answer.
public enum DraftAnswer: Equatable, Sendable {
    /// `servedBy`: which side of the pair wrote it (escalation follows a primary's failed draft).
    case draft(text: String, modelVersion: String, servedBy: DraftSide = .primary)
    /// The model declined (safety, policy); recorded as the `refused` branch.
    case refused(reason: String, modelVersion: String?)
}
