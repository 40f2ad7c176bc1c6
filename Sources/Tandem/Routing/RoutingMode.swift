/// The four named hybrid modes. Each is a composition of configured models chosen by kind:
/// `prefer-local` = (local, cloud), `prefer-cloud` = (cloud, local), and the two single-model
/// modes without a secondary.
public enum RoutingMode: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case preferLocal = "prefer-local"
    case preferCloud = "prefer-cloud"
    case localOnly = "local-only"
    case cloudOnly = "cloud-only"

    /// The kind of the primary model.
    public var primaryKind: ModelKind {
        switch self {
        case .preferLocal, .localOnly: .local
        case .preferCloud, .cloudOnly: .cloud
        }
    }

    /// The kind of the secondary model, or nil for single-model modes.
    public var secondaryKind: ModelKind? {
        switch self {
        case .preferLocal: .cloud
        case .preferCloud: .local
        case .localOnly, .cloudOnly: nil
        }
    }

    public var description: String { rawValue }
}
