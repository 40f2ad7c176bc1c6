import Foundation
import Testing
@testable import QuoteLibrary

@Suite("Quote pipeline with in-process doubles")
struct QuotePipelineTests {
    static let good = "Carry the spare key to your neighbour before the evening rain reaches her porch."
    static let goodToo = "Fold the warm blanket twice and leave it on the bench for the night nurse."
    static let goodThree = "Mend the torn sleeve tonight so your son can climb the oak tree tomorrow."

    static func pipeline(_ store: QuoteStore, writer: DraftWriter, judge: Judge? = ScriptedJudge.scoring(8),
                         embedder: Embedder? = LexicalEmbedder(),
                         readiness: Readiness = FixedReadiness.allAvailable) -> QuotePipeline {
        QuotePipeline(store: store, readiness: readiness, writer: writer, judge: judge, embedder: embedder,
                      distinctiveness: TestScorer.scorer)
    }

    @Test func acceptedDraftIsStoredAsGeneratedWithoutAuthorAndItsRunRecorded() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]))
            .generate(locale: "en", theme: "neighbours")
        #expect(outcome.run.branch == .accepted)
        #expect(outcome.run.persistence == .stored)
        let quote = try #require(outcome.quote)
        #expect(quote.source == .generated && quote.author == nil && !quote.isPublicDomain)
        #expect(quote.locale == "en" && quote.modelVersion == "scripted-1")
        #expect(quote.scores?.judgeSource == "model" && quote.scores?.judge.overall == 8)
        #expect(quote.tags.themes == ["neighbours"])
        #expect(outcome.gates.map(\.gate) == DeterministicGate.order + [.novelty, .judge, .distinctiveness])
        let run = try #require(try store.runs().first)
        #expect(run.branch == .accepted && run.quoteID == quote.id && run.modelVersion == "scripted-1")
        #expect(run.noveltyProven == false, "an empty library cannot prove novelty")
        #expect(run.readiness == FixedReadiness.allAvailable.report)
    }

    @Test func draftRequestUsesProductionOptions() async throws {
        let folder = try TemporaryFolder()
        let writer = ScriptedWriter(drafts: [Self.good])
        _ = await Self.pipeline(try QuoteStore.open(path: folder.path("lib.sqlite")), writer: writer).generate(locale: "de")
        let request = DraftRequest(locale: "de")
        #expect(request.temperature == 0.7 && request.maximumTokens == 40)
        #expect(writer.log.all.first?.contains("German") == true)
    }

    @Test func gateRejectionStoresNothingAndRecordsGateAndReason() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: ["“\(Self.good)”"])).generate(locale: "en")
        #expect(outcome.run.branch == .rejected)
        #expect(outcome.run.gate == "wrappingQuotes")
        #expect(outcome.run.reason?.contains("quotation") == true)
        #expect(try store.count() == 0)
        #expect(try store.runs().first?.draftText == "“\(Self.good)”")
    }

    @Test func secondCopyIsRejectedAsNearDuplicateWithNoveltyProven() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let pipeline = Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good, Self.good.replacingOccurrences(of: ".", with: "!")]))
        #expect(await pipeline.generate(locale: "en").run.branch == .accepted)
        let second = await pipeline.generate(locale: "en")
        #expect(second.run.branch == .rejected && second.run.gate == "novelty")
        #expect(second.run.noveltyProven)
        #expect(try store.count() == 1)
    }

    @Test func failingEmbedderLeavesNoveltyUnprovenAndSaysWhy() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), embedder: FailingEmbedder())
            .generate(locale: "en")
        #expect(outcome.run.branch == .accepted && !outcome.run.noveltyProven)
        #expect(outcome.gates.first { $0.gate == .novelty }?.reason?.contains("embedding backend offline") == true)
    }

    @Test func lowJudgeScoreRejects() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), judge: ScriptedJudge.scoring(5))
            .generate(locale: "en")
        #expect(outcome.run.branch == .rejected && outcome.run.gate == "judge")
        #expect(outcome.run.judgeSource == "model")
        #expect(try store.count() == 0)
    }

    @Test(arguments: [
        ScriptedJudge(behaviour: .answer(.json("I think this is a lovely sentence, 9/10!"))),
        ScriptedJudge(behaviour: .answer(.json(#"{"quality": 12, "originality": 7, "warmth": 7, "overall": 9}"#))),
        ScriptedJudge(behaviour: .answer(.refused("I can't rate that"))),
        ScriptedJudge(behaviour: .fail),
    ])
    func judgeGarbageRefusalOrFailureFallsBackToTheBoundedScoreAndSaysSo(judge: ScriptedJudge) async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), judge: judge).generate(locale: "en")
        #expect(outcome.run.judgeSource?.hasPrefix("fallback: ") == true, "\(String(describing: outcome.run.judgeSource))")
        let judged = try #require(outcome.gates.first { $0.gate == .judge })
        #expect((judged.score ?? 99) <= FallbackJudge.ceiling)
        #expect(outcome.run.branch == .accepted, "a concrete, warm line passes the fallback")
        #expect(try store.quote(id: #require(outcome.quote?.id))?.scores?.judgeSource.hasPrefix("fallback") == true)
    }

    @Test func unavailableJudgeIsNotAskedAndTheFallbackIsRecorded() async throws {
        let folder = try TemporaryFolder()
        var report = FixedReadiness.allAvailable.report
        report.judge = .unavailable("offline")
        let outcome = await Self.pipeline(try QuoteStore.open(path: folder.path("lib.sqlite")), writer: ScriptedWriter(drafts: [Self.good]),
                                          judge: ScriptedJudge(behaviour: .fail), readiness: FixedReadiness(report: report))
            .generate(locale: "en")
        #expect(outcome.run.judgeSource == "fallback: judge unavailable (offline)")
    }

    @Test func fallbackRejectsAnAbstractFormula() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: ["Kindness is the key to happiness and success in every part of life."]),
                                          judge: nil).generate(locale: "en")
        #expect(outcome.run.branch == .rejected)
        #expect(["judge", "distinctiveness"].contains(outcome.run.gate ?? ""))
        #expect(try store.count() == 0)
    }

    @Test func noDraftModelMeansUnavailableAndTheWriterIsNeverCalled() async throws {
        let folder = try TemporaryFolder()
        let writer = ScriptedWriter(drafts: [Self.good])
        let readiness = FixedReadiness(report: ReadinessReport(primary: .unavailable("modelNotReady"), secondary: .unavailable("offline"),
                                                               judge: .unavailable("offline"), embedder: .unavailable("offline")))
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: writer, readiness: readiness).generate(locale: "en")
        #expect(outcome.run.branch == .unavailable)
        #expect(outcome.run.reason?.contains("modelNotReady") == true)
        #expect(writer.log.all.isEmpty)
        #expect(try store.runs().first?.readiness.secondary == .unavailable("offline"))
    }

    @Test func unsupportedLocaleIsUnavailable() async throws {
        let folder = try TemporaryFolder()
        let outcome = await Self.pipeline(try QuoteStore.open(path: folder.path("lib.sqlite")), writer: ScriptedWriter(drafts: [Self.good]))
            .generate(locale: "nl")
        #expect(outcome.run.branch == .unavailable && outcome.run.reason?.contains("nl") == true)
    }

    @Test func refusalIsRecordedAsRefused() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter([.refuse("policy")])).generate(locale: "en")
        #expect(outcome.run.branch == .refused && outcome.run.reason == "policy")
        #expect(try store.count() == 0 && store.runs().count == 1)
    }

    @Test func writerFailureIsUnavailableWithTheError() async throws {
        let folder = try TemporaryFolder()
        let outcome = await Self.pipeline(try QuoteStore.open(path: folder.path("lib.sqlite")),
                                          writer: ScriptedWriter([.fail(DraftError(.unavailable, "backend crashed"))]))
            .generate(locale: "en")
        #expect(outcome.run.branch == .unavailable && outcome.run.reason?.contains("backend crashed") == true)
    }

    @Test(arguments: [false, true])
    func expiredBudgetCancelsStoresNothingAndRecordsATimeout(ignoresCancellation: Bool) async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let writer = ScriptedWriter([.slow(Self.good, .seconds(300), ignoresCancellation: ignoresCancellation)])
        let started = ContinuousClock.now
        let outcome = await Self.pipeline(store, writer: writer)
            .generate(locale: "en", budget: Budget(kind: .voice, limit: .milliseconds(200)))
        // Far below the writer's 300 s: the caller is answered at the deadline, not when the writer
        // ends. The bound is loose because the suite shares two cores with the model tests.
        #expect(ContinuousClock.now - started < .seconds(60), "the caller gets the timeout at the deadline")
        #expect(outcome.run.branch == .timeout && outcome.run.budget == "voice")
        #expect(outcome.run.persistence == .notAttempted)
        #expect(try store.count() == 0)
        #expect(try store.runs().first?.branch == .timeout)
    }

    @Test func callerCancellationStopsTheAttemptAndStoresNothing() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let pipeline = Self.pipeline(store, writer: ScriptedWriter([.slow(Self.good, .seconds(30), ignoresCancellation: false)]))
        let task = Task { await pipeline.generate(locale: "en") }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let outcome = await task.value
        #expect(outcome.run.branch == .timeout && outcome.run.reason?.contains("cancelled") == true)
        #expect(try store.count() == 0)
    }

    @Test func standardBudgetsMatchTheDesign() {
        #expect(Budget.foreground.limit == .seconds(45))
        #expect(Budget.voice.limit == .seconds(20))
        #expect(Budget.batch.limit == .seconds(120))
    }

    @Test func storageFailureOnAReadOnlyLibraryStoresNothingAndSaysWhy() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("lib.sqlite")
        _ = try QuoteStore.open(path: path)
        let reader = try QuoteStore.openReadOnly(path: path)
        let outcome = await Self.pipeline(reader, writer: ScriptedWriter(drafts: [Self.good])).generate(locale: "en")
        #expect(outcome.run.branch == .storageFailed)
        #expect(outcome.run.reason?.contains("read-only") == true)
        guard case .failed = outcome.run.persistence else { Issue.record("persistence should be failed"); return }
        #expect(!outcome.runRecorded)
        #expect(try QuoteStore.open(path: path).count() == 0)
    }

    @Test func fullDiskDuringPersistRollsBackAndTheRunSaysWhy() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("lib.sqlite")
        let pages = try QuoteStore.open(path: path).withConnection { try $0.scalarInt("PRAGMA page_count") }
        let store = try QuoteStore.open(path: path, maximumPageCount: Int(pages))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), embedder: WideEmbedder())
            .generate(locale: "en")
        #expect(outcome.run.branch == .storageFailed)
        #expect(outcome.run.reason?.contains("full") == true)
        #expect(try QuoteStore.open(path: path).count() == 0)
        #expect(try QuoteStore.open(path: path).withConnection { try $0.scalarInt("SELECT count(*) FROM quote_tags") } == 0)
    }

    @Test func batchSharesOneBudgetAndStopsAtTheRequestedCount() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let writer = ScriptedWriter(drafts: [Self.good, "Too short.", Self.goodToo, Self.goodThree, Self.good])
        let outcomes = await Self.pipeline(store, writer: writer).generateBatch(count: 3, locale: "en")
        #expect(outcomes.map(\.run.branch) == [.accepted, .rejected, .accepted, .accepted])
        #expect(try store.count() == 3 && store.runs().count == 4)
        #expect(outcomes.allSatisfy { $0.run.budget == "batch" })
    }

    @Test func batchTimeoutKeepsEarlierQuotesAndStoresNothingOfTheCandidateInFlight() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let writer = ScriptedWriter([.draft(Self.good), .slow(Self.goodToo, .seconds(600), ignoresCancellation: false)])
        // The budget leaves room for the first candidate even when the rest of the suite keeps
        // the cooperative threads busy for seconds (3 s was not enough in a full run on 2 cores);
        // the second never fits.
        let outcomes = await Self.pipeline(store, writer: writer)
            .generateBatch(count: 3, locale: "en", budget: Budget(kind: .batch, limit: .seconds(15)))
        #expect(outcomes.map(\.run.branch) == [.accepted, .timeout])
        #expect(try store.count() == 1)
        #expect(try store.quote(matching: Self.goodToo) == nil)
    }

    @Test func partialDraftTextReachesTheCallerButOnlyAcceptedTextIsStored() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let seen = CallLog()
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: ["#blessed " + Self.good]))
            .generate(locale: "en", partial: { seen.append($0) })
        #expect(!seen.all.isEmpty)
        #expect(outcome.run.branch == .rejected && outcome.run.gate == "markup")
        #expect(try store.count() == 0)
    }
}
