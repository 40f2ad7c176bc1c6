/// Mapping between `GenerationRun` and the `generation_runs` table.
enum GenerationRunRow {
    static let selectSQL = """
        SELECT started_at, locale, budget, primary_availability, secondary_availability, judge_availability,
               embedder_availability, model_version, elapsed_ms, branch, gate, reason, novelty_proven, judge_source,
               draft_text, persistence, quote_id
        FROM generation_runs
        """

    static func insert(_ run: GenerationRun, into connection: SQLiteConnection) throws {
        try connection.run("""
            INSERT INTO generation_runs (started_at, locale, budget, primary_availability, secondary_availability,
                judge_availability, embedder_availability, model_version, elapsed_ms, branch, gate, reason,
                novelty_proven, judge_source, draft_text, persistence, quote_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(run.startedAt), .text(run.locale), .text(run.budget), .text(run.readiness.primary.reason),
                  .text(run.readiness.secondary.reason), .text(run.readiness.judge.reason),
                  .text(run.readiness.embedder.reason), .optional(run.modelVersion),
                  .integer(Int64(run.elapsedMilliseconds)), .text(run.branch.rawValue), .optional(run.gate),
                  .optional(run.reason), .integer(run.noveltyProven ? 1 : 0), .optional(run.judgeSource),
                  .optional(run.draftText), .text(run.persistence.description), .optional(run.quoteID)])
    }

    static func decode(_ row: SQLiteRow) -> GenerationRun {
        var run = GenerationRun(
            startedAt: row.text(0), locale: row.text(1), budget: row.text(2),
            readiness: ReadinessReport(primary: SideAvailability(reason: row.text(3)), secondary: SideAvailability(reason: row.text(4)),
                                       judge: SideAvailability(reason: row.text(5)), embedder: SideAvailability(reason: row.text(6))))
        run.modelVersion = row.optionalText(7)
        run.elapsedMilliseconds = Int(row.int(8))
        run.branch = TerminalBranch(rawValue: row.text(9)) ?? .rejected
        run.gate = row.optionalText(10)
        run.reason = row.optionalText(11)
        run.noveltyProven = row.int(12) == 1
        run.judgeSource = row.optionalText(13)
        run.draftText = row.optionalText(14)
        run.persistence = PersistenceOutcome(stored: row.text(15))
        run.quoteID = row.isNull(16) ? nil : row.int(16)
        return run
    }
}
