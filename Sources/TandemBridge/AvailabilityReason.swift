import CTandemABI

/// Why a model cannot serve now (the ABI's `tandem_reason`), with its stable name.
public struct AvailabilityReason: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let deviceNotEligible = AvailabilityReason(rawValue: TANDEM_REASON_DEVICE_NOT_ELIGIBLE)
    public static let notEnabled = AvailabilityReason(rawValue: TANDEM_REASON_NOT_ENABLED)
    public static let modelNotReady = AvailabilityReason(rawValue: TANDEM_REASON_MODEL_NOT_READY)
    public static let unsupportedLocale = AvailabilityReason(rawValue: TANDEM_REASON_UNSUPPORTED_LOCALE)
    public static let notConfigured = AvailabilityReason(rawValue: TANDEM_REASON_NOT_CONFIGURED)
    public static let offline = AvailabilityReason(rawValue: TANDEM_REASON_OFFLINE)
    public static let unknown = AvailabilityReason(rawValue: TANDEM_REASON_UNKNOWN)
    /// The server refused a request for its rate limit and said how long to wait; until that
    /// delay has passed (the detail names the time left).
    public static let rateLimited = AvailabilityReason(rawValue: TANDEM_REASON_RATE_LIMITED)

    /// Every unavailability reason this build knows.
    public static let all: [AvailabilityReason] = [
        .deviceNotEligible, .notEnabled, .modelNotReady, .unsupportedLocale, .notConfigured, .offline, .unknown, .rateLimited,
    ]

    public var name: String { String(cString: tandem_reason_name(rawValue)) }

    public init?(name: String) {
        guard let match = Self.all.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    public var description: String { name }
}

/// The answer of a model's cheap availability check.
public enum Availability: Hashable, Sendable {
    case available
    /// `progress` is the fraction 0...1 of a download or verification under way, when known.
    case unavailable(AvailabilityReason, detail: String, progress: Double? = nil)

    public var isAvailable: Bool { if case .available = self { true } else { false } }
}
