/// When a primary that did not serve hands the request to the secondary (README "Routing: who answers", rules 3 and 5).
/// Cancellation never does.
///
/// - A local primary falls back whatever kept it from serving: any unavailability, a request it
///   cannot handle, any failure before output reached the caller.
/// - A cloud primary falls back only when offline: availability `offline`, or an offline-class
///   failure (no route, refused, connect timeout) before any response byte. Every other
///   unavailability (`notConfigured`, `notEnabled`, `modelNotReady`, …) and failure reaches the
///   caller, so a missing key never silently becomes a local answer. A request it cannot handle
///   (tools, schema, thinking, context: a property of the request, not of the service) still goes
///   to the secondary, as for a local primary; the fallback record says so.
///
/// A config widens the cloud rule (`fallback.also_on`) with availability reasons and error codes.
public struct FallbackPolicy: Hashable, Sendable {
    /// Failures that fall back from a cloud primary in addition to `offline`.
    public var additionalCloudFailures: Set<BackendStatus>
    /// Availability reasons that fall back from a cloud primary in addition to `offline`.
    public var additionalCloudUnavailability: Set<AvailabilityReason>

    public init(additionalCloudFailures: Set<BackendStatus> = [], additionalCloudUnavailability: Set<AvailabilityReason> = []) {
        self.additionalCloudFailures = additionalCloudFailures
        self.additionalCloudUnavailability = additionalCloudUnavailability
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

    /// True when a primary of `kind` that is unavailable for `reason` lets the secondary serve.
    public func fallsBack(whenUnavailable reason: AvailabilityReason, primaryKind kind: ModelKind) -> Bool {
        switch kind {
        case .cloud: return reason == .offline || additionalCloudUnavailability.contains(reason)
        case .local, .test: return true
        }
    }
}
