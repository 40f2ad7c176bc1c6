/// How one generation attempt ended.
public enum TerminalBranch: String, Codable, Sendable, CaseIterable {
    case accepted, rejected, timeout, unavailable, refused, storageFailed
}
