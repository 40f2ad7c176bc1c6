import QuoteLibrary
import Tandem

/// The quote pipeline bound to a host: draft on the routed model, judge on `quote.judge` (else
/// the same routed model, in its own conversation), embedder on `quote.embedder` (else the
/// model-free `LexicalEmbedder`), readiness from all of them, escalation on the gates of
/// `quote.escalate_on` (default: every gate).
public struct QuoteBinding: Sendable {
    public let readiness: Readiness
    public let writer: DraftWriter
    public let judge: Judge
    public let embedder: Embedder
    /// Every model the binding may call (draft sides, judge sides, embedder), for a caller that
    /// waits for models getting ready first.
    public let models: [LanguageModel]
    public let escalation: EscalationPolicy

    /// `routing` overrides the config's routing for the draft (as `respond --mode` does).
    public init(host: TandemHost, routing: TandemConfig.Routing? = nil) throws(ConfigError) {
        let config = host.config
        let draft = try host.hybridModel(routing: routing)
        let judgeModel = try config.quote.judge.map { id throws(ConfigError) in
            HybridModel(primary: try host.model(id, keyPath: "quote.judge"))
        } ?? draft
        let embedderModel = try HostEmbedder.configuredModel(host: host)
        models = [draft.primary, draft.secondary, judgeModel.primary, judgeModel.secondary, embedderModel].compactMap { $0 }
        switch config.quote.escalateOn.map(EscalationPolicy.parse) ?? .success(.everyGate) {
        case .success(let policy): escalation = policy
        case .failure(let unknown):
            throw ConfigError(.invalidValue, file: config.file, keyPath: "quote.escalate_on", unknown.description)
        }
        readiness = HostReadiness(draft: draft, judge: judgeModel, embedder: embedderModel)
        writer = HostDraftWriter(model: draft)
        judge = HostJudge(model: judgeModel)
        embedder = HostEmbedder.embedder(for: embedderModel)
    }

    /// The pipeline on `store` with this binding.
    public func pipeline(store: QuoteStore) -> QuotePipeline {
        QuotePipeline(store: store, readiness: readiness, writer: writer, judge: judge, embedder: embedder,
                      escalation: escalation)
    }
}
