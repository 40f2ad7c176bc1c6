/// Which failures of a primary, before any output reached the caller, hand the request to the
/// secondary. Unavailability of the primary always does, and cancellation never does.
///
/// The default follows DESIGN §3: a local primary falls back on any failure; a cloud primary
/// only on offline-class failures (no response byte arrived). A config may widen it, e.g. to
/// also fall back on `rateLimited` or `serverError`.
public struct FallbackPolicy: Hashable, Sendable {
    /// Failures that fall back from a cloud primary in addition to `offline`.
    public var additionalCloudFailures: Set<BackendStatus>

    public init(additionalCloudFailures: Set<BackendStatus> = []) {
        self.additionalCloudFailures = additionalCloudFailures
    }

    public static let `default` = FallbackPolicy()

    /// True when `failure` of a primary of `kind` (before any output) lets the secondary serve.
    public func fallsBack(after failure: BackendFailure, primaryKind kind: ModelKind) -> Bool {
        if failure.status == .cancelled { return false }
        switch kind {
        case .cloud: return failure.status == .offline || additionalCloudFailures.contains(failure.status)
        case .local, .test: return true
        }
    }
}
