/// One configured model the app can ask about and route to, over any `Backend` (a plugin's
/// model, or a test double). Mirrors Foundation Models' `SystemLanguageModel`: check
/// `isAvailable` / `availability` before making a session.
///
/// - Note: Thread-safe. `availability` calls the backend's cheap check each time (no caching,
///   so a model that finishes loading becomes available at once).
public final class LanguageModel: Sendable {
    public let backend: any Backend

    public init(_ backend: any Backend) { self.backend = backend }

    /// The backend id from the config (`"local"`, `"cloud"`).
    public var id: String { backend.backendID }
    public var info: ModelInfo { backend.info }
    public var kind: ModelKind { backend.info.kind }

    /// Availability for any locale.
    public var availability: Availability { backend.availability(locale: nil) }
    public var isAvailable: Bool { availability.isAvailable }

    /// Availability for a BCP 47 locale (`"de-CH"`); `.unavailable(.unsupportedLocale, ...)` when
    /// the model cannot serve it.
    public func availability(for locale: String?) -> Availability { backend.availability(locale: locale) }
}
