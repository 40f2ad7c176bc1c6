/// Why a model of a hybrid pair did not serve a request: the answer of its availability check,
/// a request it cannot handle, or the failure of its call.
public enum RoutingReason: Hashable, Sendable, CustomStringConvertible {
    /// Its availability check said no (and, for unsupported locales, for which locale).
    case unavailable(AvailabilityReason, detail: String)
    /// The request needs something the model lacks (tools, a response schema, a longer context,
    /// thinking); the text names it.
    case unsupported(String)
    /// It was called and failed before any output reached the caller.
    case failed(BackendFailure)

    /// The stable one-word spelling used in JSON output and logs: the availability reason
    /// (`modelNotReady`), `unsupportedRequest`, or the failure's status name (`offline`).
    public var name: String {
        switch self {
        case .unavailable(let reason, _): reason.name
        case .unsupported: "unsupportedRequest"
        case .failed(let failure): failure.status.name
        }
    }

    public var description: String {
        switch self {
        case .unavailable(let reason, let detail): detail.isEmpty ? "unavailable (\(reason))" : "unavailable (\(reason): \(detail))"
        case .unsupported(let what): "unsupported request (\(what))"
        case .failed(let failure): "failed (\(failure))"
        }
    }
}

/// One model's part in a routing decision: which backend, and why it did not serve.
public struct RoutingAttempt: Hashable, Sendable, CustomStringConvertible {
    public var backendID: String
    public var reason: RoutingReason

    public init(backendID: String, reason: RoutingReason) {
        self.backendID = backendID
        self.reason = reason
    }

    public var description: String { "\(backendID): \(reason)" }
}
