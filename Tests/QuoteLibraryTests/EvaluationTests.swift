import Foundation
import PluginFixtures
import Testing
@testable import QuoteLibrary

/// A fast deterministic stand-in for the fake plugin: per locale, picks one of a few lines by
/// seed (one of them wrapped in quotes, so the gate has something to reject; repeats make the
/// novelty gate work).
struct TableWriter: DraftWriter {
    static let lines: [String: [String]] = [
        // The last en line passes the gate and novelty but not distinctiveness, so it is never stored
        // and reaches the judge step in every readiness state.
        "en": [QuotePipelineTests.good, QuotePipelineTests.goodToo, "“\(QuotePipelineTests.goodThree)”", QuotePipelineTests.goodThree,
               "Every day is a new chance to grow a little stronger and kinder."],
        "de": [RejectionFixtures.valid["de"]!, RejectionFixtures.stored["de"]!, "Glaub an dich und folge deinen Träumen, jeden Tag aufs Neue."],
        "es": [RejectionFixtures.valid["es"]!, RejectionFixtures.stored["es"]!, "Nunca te rindas."],
        "fr": [RejectionFixtures.valid["fr"]!, RejectionFixtures.stored["fr"]!, RejectionFixtures.multiSentence["fr"]!],
        "it": [RejectionFixtures.valid["it"]!, RejectionFixtures.stored["it"]!, RejectionFixtures.valid["pt"]!],
        "pt": [RejectionFixtures.valid["pt"]!, RejectionFixtures.stored["pt"]!, RejectionFixtures.tooLong["pt"]!],
    ]
    /// A slow backend: each draft advances this clock by `delay`.
    var slow: (delay: Duration, clock: ManualClock)?

    func write(_ request: DraftRequest, partial: @escaping @Sendable (String) -> Void) async throws -> DraftAnswer {
        if let slow { slow.clock.advance(by: slow.delay) }
        let table = Self.lines[SupportedLocale.language(of: request.locale)]!
        return .draft(text: table[Int((request.seed ?? 0) % UInt64(table.count))], modelVersion: "table-writer-1")
    }
}

@Suite("Evaluation protocol and runner")
struct EvaluationTests {
    static var repositoryProtocolPath: String {
        PackagePaths.root + "/eval/protocol.json"
    }

    @Test func repositoryProtocolCoversTheDesignMatrix() throws {
        let file = try EvaluationProtocol.load(path: Self.repositoryProtocolPath)
        #expect(Set(file.locales) == SupportedLocale.languages)
        #expect(Set(file.budgets.map(\.kind)) == Set(Budget.Kind.allCases))
        #expect(file.budgets.first { $0.kind == .batch }!.count > 1, "a batch asks for several candidates")
        #expect(file.readinessStates.contains { $0.primary == "available" && $0.judge == "available" && $0.embedder == "available" })
        #expect(file.readinessStates.contains { $0.primary != "available" && $0.secondary != "available" })
        #expect(file.readinessStates.contains { $0.judge != "available" })
        #expect(file.readinessStates.contains { $0.embedder != "available" })
        #expect(file.cells.count == file.readinessStates.count * file.locales.count * file.prompts.count * file.budgets.count)
    }

    @Test func badProtocolIsReportedWithFileAndKey() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("protocol.json")
        var text = try String(contentsOfFile: Self.repositoryProtocolPath, encoding: .utf8)
        text = text.replacingOccurrences(of: #""locales": ["en""#, with: #""locales": ["nl""#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: EvaluationError.self) { try EvaluationProtocol.load(path: path) }
        #expect(error?.message.contains(path) == true && error?.message.contains("\"nl\"") == true)
        try #"{"version": 1, "description": "x", "locales": "en"}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let typeError = #expect(throws: EvaluationError.self) { try EvaluationProtocol.load(path: path) }
        #expect(typeError?.message.contains("readinessStates") == true || typeError?.message.contains("locales") == true)
    }

    @Test func runnerProducesConsistentReportAndSummaryOnTheRepositoryProtocol() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("eval.sqlite"))
        let file = try EvaluationProtocol.load(path: Self.repositoryProtocolPath)
        let runner = EvaluationRunner(pipeline: QuotePipeline(store: store, readiness: FixedReadiness.allAvailable,
                                                              writer: TableWriter(), judge: ScriptedJudge.scoring(7),
                                                              embedder: LexicalEmbedder(), distinctiveness: TestScorer.scorer))
        let report = await runner.run(file)
        let summary = report.summary
        #expect(summary.attempts == report.records.count)
        #expect(summary.branches.values.reduce(0, +) == summary.attempts)
        #expect(summary.accepted > 0 && summary.acceptanceRate > 0 && summary.acceptanceRate < 1)
        #expect(summary.acceptanceByReadiness["nothing-ready"] == 0)
        #expect(report.records.filter { $0.cell.readiness.name == "nothing-ready" }.allSatisfy { $0.run.branch == .unavailable })
        #expect(summary.rejectionsByGate["novelty"] ?? 0 > 0)
        #expect(summary.rejectionsByGate["wrappingQuotes"] ?? 0 > 0)
        #expect(summary.judgeFallbacks > 0, "the no-judge state uses the fallback")
        #expect(summary.timeouts == 0)
        #expect(summary.latencyByBranch["accepted"].map { $0.p50Milliseconds <= $0.p95Milliseconds } == true)
        #expect(try store.runs(limit: 100_000).count == summary.attempts, "every attempt was recorded")
        #expect(try store.count(source: .generated) == summary.accepted)

        try report.write(to: folder.path("out"))
        let decoded = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path("out/report.json")))) as? [String: Any]
        #expect(decoded?["summary"] != nil && decoded?["records"] != nil)
        let markdown = try String(contentsOfFile: folder.path("out/summary.md"), encoding: .utf8)
        for heading in ["Acceptance rate", "Rejections per gate", "p50 ms", "Timeouts", "Time per attempt", "Time per stage",
                        "Accepted lines"] { #expect(markdown.contains(heading)) }
        #expect(summary.acceptedLines.count == summary.accepted)
        #expect(summary.acceptedLines.allSatisfy { markdown.contains("- \($0)") })
        #expect(summary.attemptLatency.count == summary.attempts)
        let drafted = report.records.filter { $0.run.draftText != nil }.count
        #expect(summary.latencyByStage["draft"]?.count == drafted && summary.latencyByStage["persist"]?.count
                == summary.accepted + (summary.branches["storageFailed"] ?? 0), "persist is timed whenever it was tried")
        #expect(summary.latencyByStage["readiness"]?.count == summary.attempts)
    }

    @Test func slowBackendUnderAShortBudgetIsReportedAsTimeouts() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("eval.sqlite"))
        let file = EvaluationProtocol(version: 1, description: "timeouts", readinessStates: [
            .init(name: "all", primary: "available", secondary: "available", judge: "available", embedder: "available")],
            locales: ["en"], prompts: [.init(id: "p", theme: "t")], budgets: [.init(kind: .voice, count: 1), .init(kind: .batch, count: 2)],
            repetitions: 1, seed: 1)
        let clock = ManualClock()
        let runner = EvaluationRunner(pipeline: QuotePipeline(store: store, readiness: FixedReadiness.allAvailable,
                                                              writer: TableWriter(slow: (.seconds(2), clock)), judge: nil,
                                                              embedder: nil, distinctiveness: TestScorer.scorer, clock: clock),
                                      budgetLimitOverride: .milliseconds(100))
        let report = await runner.run(file)
        #expect(report.summary.timeouts == 2 && report.summary.accepted == 0)
        #expect(try store.count() == 0)
    }

    @Test func percentilesUseNearestRank() {
        #expect(EvaluationReport.percentile([], 50) == 0)
        #expect(EvaluationReport.percentile([7], 95) == 7)
        let values = Array(1...20)
        #expect(EvaluationReport.percentile(values, 50) == 10)
        #expect(EvaluationReport.percentile(values, 95) == 19)
    }
}
