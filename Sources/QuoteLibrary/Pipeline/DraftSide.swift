/// Which model of the routed pair a draft is asked of, or was written by.
public enum DraftSide: String, Codable, Sendable {
    case primary, secondary
}
