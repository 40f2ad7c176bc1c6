/// Runs an evaluation protocol through the pipeline against the configured backends (the fake
/// plugin in CI, the local model optionally) and summarises the runs.
public struct EvaluationRunner: Sendable {
    public let store: QuoteStore
    public let readiness: Readiness
    public let writer: DraftWriter
    public let judge: Judge?
    public let embedder: Embedder?
    public let distinctiveness: DistinctivenessScorer
    public let judgeCalibration: JudgeCalibration?
    /// Replaces each budget's standard limit (to run the matrix quickly against a fast fake);
    /// nil keeps 45 s / 20 s / 120 s.
    public let budgetLimitOverride: Duration?

    public init(store: QuoteStore, readiness: Readiness, writer: DraftWriter, judge: Judge?, embedder: Embedder?,
                distinctiveness: DistinctivenessScorer, judgeCalibration: JudgeCalibration? = nil,
                budgetLimitOverride: Duration? = nil) {
        (self.store, self.readiness, self.writer, self.judge, self.embedder, self.distinctiveness, self.judgeCalibration,
         self.budgetLimitOverride) = (store, readiness, writer, judge, embedder, distinctiveness, judgeCalibration,
                                      budgetLimitOverride)
    }

    public func run(_ protocolFile: EvaluationProtocol, progress: @Sendable (Int, Int) -> Void = { _, _ in }) async -> EvaluationReport {
        let cells = protocolFile.cells
        var records: [EvaluationReport.Record] = []
        for (index, cell) in cells.enumerated() {
            progress(index + 1, cells.count)
            let pipeline = QuotePipeline(store: store, readiness: MaskedReadiness(base: readiness, state: cell.readiness),
                                         writer: writer, judge: judge, embedder: embedder,
                                         distinctiveness: distinctiveness, judgeCalibration: judgeCalibration)
            let standard = Budget.standard(cell.budget.kind)
            let budget = Budget(kind: cell.budget.kind, limit: budgetLimitOverride ?? standard.limit)
            let outcomes: [GenerationOutcome]
            if cell.budget.kind == .batch {
                outcomes = await pipeline.generateBatch(count: cell.budget.count, locale: cell.locale, theme: cell.prompt.theme,
                                                        budget: budget, seed: cell.seed)
            } else {
                var collected: [GenerationOutcome] = []
                for attempt in 0..<cell.budget.count {
                    collected.append(await pipeline.generate(locale: cell.locale, theme: cell.prompt.theme, budget: budget,
                                                             seed: cell.seed &+ UInt64(attempt)))
                }
                outcomes = collected
            }
            records += outcomes.map { EvaluationReport.Record(cell: cell, run: $0.run) }
        }
        return EvaluationReport(protocolVersion: protocolFile.version, cells: cells.count, records: records)
    }
}
