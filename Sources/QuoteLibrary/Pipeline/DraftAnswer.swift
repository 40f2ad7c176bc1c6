/// The draft model's answer.
public enum DraftAnswer: Equatable, Sendable {
    case draft(text: String, modelVersion: String)
    /// The model declined (safety, policy); recorded as the `refused` branch.
    case refused(reason: String, modelVersion: String?)
}
