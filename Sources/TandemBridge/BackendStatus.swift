import CTandemABI

/// A status code of the C ABI as a Swift value, with its stable name (`"rateLimited"`).
///
/// A struct rather than an enum so new codes from newer plugins stay representable.
public struct BackendStatus: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let ok = BackendStatus(rawValue: TANDEM_OK)
    public static let unknown = BackendStatus(rawValue: TANDEM_E_UNKNOWN)
    public static let incompatible = BackendStatus(rawValue: TANDEM_E_INCOMPATIBLE)
    public static let invalidArgument = BackendStatus(rawValue: TANDEM_E_INVALID_ARGUMENT)
    public static let unsupportedOption = BackendStatus(rawValue: TANDEM_E_UNSUPPORTED_OPTION)
    public static let unavailable = BackendStatus(rawValue: TANDEM_E_UNAVAILABLE)
    public static let cancelled = BackendStatus(rawValue: TANDEM_E_CANCELLED)
    public static let bufferTooSmall = BackendStatus(rawValue: TANDEM_E_BUFFER_TOO_SMALL)
    public static let timeout = BackendStatus(rawValue: TANDEM_E_TIMEOUT)
    public static let exceededContextWindowSize = BackendStatus(rawValue: TANDEM_E_CONTEXT_WINDOW_EXCEEDED)
    public static let guardrail = BackendStatus(rawValue: TANDEM_E_GUARDRAIL)
    public static let refusal = BackendStatus(rawValue: TANDEM_E_REFUSAL)
    public static let rateLimited = BackendStatus(rawValue: TANDEM_E_RATE_LIMITED)
    public static let concurrentRequests = BackendStatus(rawValue: TANDEM_E_CONCURRENT_REQUESTS)
    public static let decoding = BackendStatus(rawValue: TANDEM_E_DECODING)
    public static let offline = BackendStatus(rawValue: TANDEM_E_OFFLINE)
    public static let serverError = BackendStatus(rawValue: TANDEM_E_SERVER_ERROR)
    public static let tls = BackendStatus(rawValue: TANDEM_E_TLS)
    public static let auth = BackendStatus(rawValue: TANDEM_E_AUTH)
    public static let modelNotFound = BackendStatus(rawValue: TANDEM_E_MODEL_NOT_FOUND)
    public static let unsupportedGuide = BackendStatus(rawValue: TANDEM_E_UNSUPPORTED_GUIDE)
    public static let initFailed = BackendStatus(rawValue: TANDEM_E_INIT_FAILED)
    public static let io = BackendStatus(rawValue: TANDEM_E_IO)
    public static let quotaExceeded = BackendStatus(rawValue: TANDEM_E_QUOTA_EXCEEDED)
    public static let badModelFile = BackendStatus(rawValue: TANDEM_E_BAD_MODEL_FILE)
    /// Set by the host, never by a plugin: an isolated backend's child process died (signal,
    /// exit, out of memory) or was killed for not stopping after its call was cancelled.
    public static let backendCrashed = BackendStatus(rawValue: TANDEM_E_BACKEND_CRASHED)

    /// Every code this build knows, for lookups by name.
    public static let known: [BackendStatus] = (-25...0).map { BackendStatus(rawValue: Int32($0)) }

    /// The stable name from the header (`tandem_status_name`).
    public var name: String { String(cString: tandem_status_name(rawValue)) }

    /// Looks a code up by its stable name (`"serverError"`), as configs spell it.
    public init?(name: String) {
        guard let match = Self.known.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    public var description: String { name }
}
