/// An error of the Tandem host: a stable, extensible `code`, a message for people, and what
/// the router knew when it gave up (each side's reason, the backend failure that surfaced).
///
/// Built like NIO's `FileSystemError`: `Code` is a struct over a private enum, so new codes do
/// not break anyone's `switch`.
public struct TandemError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Wrapped: String, Hashable, Sendable {
            case unavailable, unsupportedRequest, backendFailure, cancelled, timeout
            case invalidOptions, emptyPrompt, concurrentRequests, unknownBackend
        }
        private let wrapped: Wrapped
        private init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        /// No model that may serve is available; `primary`/`secondary` carry the reasons.
        public static let unavailable = Code(.unavailable)
        /// The request needs what the serving model lacks (single-model modes).
        public static let unsupportedRequest = Code(.unsupportedRequest)
        /// A backend failed and the failure reached the caller; `failure` says how.
        public static let backendFailure = Code(.backendFailure)
        /// The caller cancelled (task cancellation, or stopped consuming a stream).
        public static let cancelled = Code(.cancelled)
        /// A backend's deadline passed after the request was under way.
        public static let timeout = Code(.timeout)
        /// An option value is out of range for its side; no backend was called.
        public static let invalidOptions = Code(.invalidOptions)
        /// The prompt is empty or only whitespace; no backend was called.
        public static let emptyPrompt = Code(.emptyPrompt)
        /// The session is already answering a request.
        public static let concurrentRequests = Code(.concurrentRequests)
        /// A backend id that is not configured.
        public static let unknownBackend = Code(.unknownBackend)

        public var description: String { wrapped.rawValue }
    }

    public var code: Code
    public var message: String
    /// The primary's reason for not serving, when the router got that far.
    public var primary: RoutingAttempt?
    /// The secondary's reason for not serving, when it was considered.
    public var secondary: RoutingAttempt?
    /// The backend failure that reached the caller, if one did.
    public var failure: BackendFailure?

    public init(
        _ code: Code, _ message: String, primary: RoutingAttempt? = nil, secondary: RoutingAttempt? = nil,
        failure: BackendFailure? = nil
    ) {
        self.code = code
        self.message = message
        self.primary = primary
        self.secondary = secondary
        self.failure = failure
    }

    /// The availability reason of the side that decided the outcome (the secondary's when it
    /// was considered), or nil when no side was unavailable.
    public var availabilityReason: AvailabilityReason? {
        for attempt in [secondary, primary].compactMap({ $0 }) {
            if case .unavailable(let reason, _) = attempt.reason { return reason }
        }
        return nil
    }

    public var description: String { "\(code): \(message)" }
}
