/// The record of one attempt, whatever its end (Sources/QuoteLibrary/README.md, "The pipeline":
/// every run is recorded so the evaluation protocol can be replayed and reported).
public struct GenerationRun: Codable, Equatable, Sendable {
    public var startedAt: String
    public var locale: String
    public var budget: String
    public var readiness: ReadinessReport
    /// The version of the model that wrote the draft.
    public var modelVersion: String?
    /// Which side of the pair wrote the draft (nil when none was written).
    public var servedBy: DraftSide?
    /// Set when this attempt went to the secondary because the primary's draft failed a gate.
    public var escalation: Escalation?
    public var timings: StageTimings
    public var elapsedMilliseconds: Int
    public var branch: TerminalBranch
    /// The gate that rejected the draft (rejected only), or the step that failed otherwise.
    public var gate: String?
    public var reason: String?
    /// False when the novelty gate passed without comparing (no embedder or empty library).
    public var noveltyProven: Bool
    /// "model", or "fallback: <why>" when the deterministic score stood in for the judge.
    public var judgeSource: String?
    /// The register model's two scores for the draft, or why the register was skipped (no
    /// embedder, no model for the embedder's vectors, no token states); nil when not reached.
    public var register: String?
    /// The taste model's log-odds for the draft, or why taste was skipped (a language it was not
    /// fitted on, no embedder, no model for the embedder's vectors); nil when not reached.
    public var taste: String?
    /// The draft as written (for replay and tuning); it is never stored as a quote unless accepted.
    public var draftText: String?
    public var persistence: PersistenceOutcome
    public var quoteID: Int64?

    /// A run that has not ended yet: the pipeline fills in the branch and the rest as it goes.
    public init(startedAt: String, locale: String, budget: String, readiness: ReadinessReport) {
        (self.startedAt, self.locale, self.budget, self.readiness) = (startedAt, locale, budget, readiness)
        modelVersion = nil
        timings = StageTimings()
        elapsedMilliseconds = 0
        branch = .rejected
        noveltyProven = false
        persistence = .notAttempted
    }
}
