/// Reports, before any session is made, whether each side can serve the locale
/// (Sources/QuoteLibrary/README.md, "The pipeline", step 1).
public protocol Readiness: Sendable {
    func report(locale: String) async -> ReadinessReport
}
