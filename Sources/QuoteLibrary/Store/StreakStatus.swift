/// Streak state for the `ask` agent's streak tool.
public struct StreakStatus: Codable, Equatable, Sendable {
    /// Consecutive active days ending today (or yesterday, when today has no activity yet).
    public let current: Int
    public let longest: Int
    public let activeToday: Bool
    public let lastActiveDay: String?
}
