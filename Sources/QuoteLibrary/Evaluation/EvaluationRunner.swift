/// Runs an evaluation protocol through the pipeline against the configured backends (the fake
/// plugin in CI, the local model optionally) and summarises the runs. Each cell is one command
/// with one budget: foreground and voice cells make `count` attempts, batch cells ask for
/// `count` accepted quotes.
public struct EvaluationRunner: Sendable {
    public let pipeline: QuotePipeline
    /// Replaces each budget's standard limit (to run the matrix quickly against a fast fake);
    /// nil keeps 45 s / 20 s / 120 s.
    public let budgetLimitOverride: Duration?

    public init(pipeline: QuotePipeline, budgetLimitOverride: Duration? = nil) {
        (self.pipeline, self.budgetLimitOverride) = (pipeline, budgetLimitOverride)
    }

    public func run(_ protocolFile: EvaluationProtocol, progress: @Sendable (Int, Int) -> Void = { _, _ in }) async -> EvaluationReport {
        let cells = protocolFile.cells
        var records: [EvaluationReport.Record] = []
        for (index, cell) in cells.enumerated() {
            progress(index + 1, cells.count)
            let masked = pipeline.replacingReadiness(MaskedReadiness(base: pipeline.readiness, state: cell.readiness))
            let budget = Budget(kind: cell.budget.kind, limit: budgetLimitOverride ?? Budget.standard(cell.budget.kind).limit)
            let outcomes = await masked.generate(count: cell.budget.count,
                                                 attempts: cell.budget.kind == .batch ? nil : cell.budget.count,
                                                 locale: cell.locale, theme: cell.prompt.theme, budget: budget, seed: cell.seed)
            records += outcomes.map { EvaluationReport.Record(cell: cell, run: $0.run) }
        }
        return EvaluationReport(protocolVersion: protocolFile.version, cells: cells.count, records: records)
    }
}
