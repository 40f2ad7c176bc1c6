import QuoteLibrary
import Tandem

/// Readiness (Sources/QuoteLibrary/README.md, "The pipeline", step 1) from each side's cheap
/// availability check, for the locale: the routed draft pair, the judge's model, and the embedder's
/// backend (the lexical embedder, being code, is always available).
public struct HostReadiness: Readiness {
    let draft: HybridModel
    let judge: HybridModel
    let embedder: LanguageModel?

    public init(draft: HybridModel, judge: HybridModel, embedder: LanguageModel?) {
        (self.draft, self.judge, self.embedder) = (draft, judge, embedder)
    }

    public func report(locale: String) async -> ReadinessReport {
        func side(_ model: LanguageModel?) -> SideAvailability {
            guard let model else { return .unavailable("notConfigured") }
            switch model.availability(for: locale) {
            case .available: return .available
            case .unavailable(let reason, _, _): return .unavailable(reason.name)
            }
        }
        let judgeSides = [side(judge.primary), side(judge.secondary)]
        return ReadinessReport(primary: side(draft.primary), secondary: side(draft.secondary),
                               judge: judgeSides.first(where: \.isAvailable) ?? judgeSides[0],
                               embedder: embedder.map { side($0) } ?? .available)
    }
}
