/// Mapping between `GenerationRun` and the `generation_runs` table.
enum GenerationRunRow {
    /// The stage-timing columns, in `StageTimings.Stage` order.
    static let timingColumns = StageTimings.Stage.allCases.map { "\($0.rawValue)_ms" }

    static let columns = ["started_at", "locale", "budget", "primary_availability", "secondary_availability",
                          "judge_availability", "embedder_availability", "model_version", "elapsed_ms", "branch", "gate",
                          "reason", "novelty_proven", "judge_source", "draft_text", "persistence", "quote_id", "served_by",
                          "escalation_gate", "escalated_from_model_version", "taste", "register"] + timingColumns

    static let selectSQL = "SELECT \(columns.joined(separator: ", ")) FROM generation_runs"

    static func insert(_ run: GenerationRun, into connection: SQLiteConnection) throws {
        let values: [SQLValue] = [
            .text(run.startedAt), .text(run.locale), .text(run.budget), .text(run.readiness.primary.reason),
            .text(run.readiness.secondary.reason), .text(run.readiness.judge.reason),
            .text(run.readiness.embedder.reason), .optional(run.modelVersion),
            .integer(Int64(run.elapsedMilliseconds)), .text(run.branch.rawValue), .optional(run.gate),
            .optional(run.reason), .integer(run.noveltyProven ? 1 : 0), .optional(run.judgeSource),
            .optional(run.draftText), .text(run.persistence.description), .optional(run.quoteID),
            .optional(run.servedBy?.rawValue), .optional(run.escalation?.gate.rawValue),
            .optional(run.escalation?.primaryModelVersion), .optional(run.taste), .optional(run.register),
        ] + StageTimings.Stage.allCases.map { stage in run.timings[stage].map { .integer(Int64($0)) } ?? .null }
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        try connection.run("INSERT INTO generation_runs (\(columns.joined(separator: ", "))) VALUES (\(placeholders))", values)
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
        run.servedBy = row.optionalText(17).flatMap(DraftSide.init(rawValue:))
        run.escalation = row.optionalText(18).flatMap(GateName.init(rawValue:)).map {
            Escalation(gate: $0, primaryModelVersion: row.optionalText(19))
        }
        run.taste = row.optionalText(20)
        run.register = row.optionalText(21)
        for (offset, stage) in StageTimings.Stage.allCases.enumerated() {
            let column = Int32(22 + offset)
            if !row.isNull(column) { run.timings[stage] = Int(row.int(column)) }
        }
        return run
    }
}
