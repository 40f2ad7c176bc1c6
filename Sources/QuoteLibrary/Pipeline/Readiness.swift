/// Reports, before any session is made, whether each side can serve the locale (DESIGN §6 step 1).
public protocol Readiness: Sendable {
    func report(locale: String) async -> ReadinessReport
}
