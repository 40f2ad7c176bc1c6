import Foundation

/// The generated-quote pipeline in DESIGN §6 order: readiness → draft → deterministic gate →
/// novelty → judge → distinctiveness → one-transaction persist. Nothing is written until every
/// gate accepts; every attempt, whatever its end, is recorded as a run.
public struct QuotePipeline: Sendable {
    public let store: QuoteStore
    public let readiness: Readiness
    public let writer: DraftWriter
    public let judge: Judge?
    public let embedder: Embedder?
    public let gate: DeterministicGate
    public let distinctiveness: DistinctivenessScorer
    /// The judge's measured discrimination; below `JudgeCalibration.minimumAUC` the fallback
    /// stands in for it and the run's judge source says why.
    public let judgeCalibration: JudgeCalibration?

    /// How many recent rejected drafts count as negative anchors for distinctiveness.
    public static let negativeAnchorCount = 20
    /// A batch stops after this many attempts per requested quote, even with budget left.
    public static let attemptsPerBatchQuote = 4

    public init(store: QuoteStore, readiness: Readiness, writer: DraftWriter, judge: Judge?, embedder: Embedder?,
                distinctiveness: DistinctivenessScorer, judgeCalibration: JudgeCalibration? = nil,
                gate: DeterministicGate = DeterministicGate()) {
        (self.store, self.readiness, self.writer, self.judge, self.embedder, self.distinctiveness, self.judgeCalibration,
         self.gate) = (store, readiness, writer, judge, embedder, distinctiveness, judgeCalibration, gate)
    }

    /// One attempt within `budget` (foreground or voice).
    public func generate(locale: String, theme: String? = nil, budget: Budget = .foreground, seed: UInt64? = nil,
                         partial: @escaping @Sendable (String) -> Void = { _ in }) async -> GenerationOutcome {
        let deadline = ContinuousClock.now.advanced(by: budget.limit)
        return await attempt(locale: locale, theme: theme, budget: budget, seed: seed, deadline: deadline, partial: partial)
    }

    /// A batch (`count` < 1 asks for nothing and returns no outcomes): up to `count` accepted quotes, all attempts sharing one budget. Stops at the
    /// deadline (the attempt in flight is cancelled and recorded as a timeout) or after
    /// `attemptsPerBatchQuote × count` attempts.
    public func generateBatch(count: Int, locale: String, theme: String? = nil, budget: Budget = .batch,
                              seed: UInt64? = nil) async -> [GenerationOutcome] {
        let deadline = ContinuousClock.now.advanced(by: budget.limit)
        var outcomes: [GenerationOutcome] = []
        var accepted = 0
        while accepted < count, outcomes.count < count * Self.attemptsPerBatchQuote, !Task.isCancelled {
            let attemptSeed = seed.map { $0 &+ UInt64(outcomes.count) }
            let outcome = await attempt(locale: locale, theme: theme, budget: budget, seed: attemptSeed,
                                        deadline: deadline, partial: { _ in })
            outcomes.append(outcome)
            if outcome.run.branch == .accepted { accepted += 1 }
            if [.timeout, .unavailable, .storageFailed].contains(outcome.run.branch) { break }
        }
        return outcomes
    }

    // MARK: One attempt

    private func attempt(locale: String, theme: String?, budget: Budget, seed: UInt64?,
                         deadline: ContinuousClock.Instant, partial: @escaping @Sendable (String) -> Void) async -> GenerationOutcome {
        let started = ContinuousClock.now
        let report = await readiness.report(locale: locale)
        var run = GenerationRun(startedAt: Timestamp.now(), locale: locale, budget: budget.kind.rawValue, readiness: report)
        func finish(_ branch: TerminalBranch, gate: GateName? = nil, reason: String? = nil,
                    gates: [GateResult] = []) -> GenerationOutcome {
            run.branch = branch
            run.gate = gate?.rawValue
            run.reason = reason
            run.elapsedMilliseconds = Self.milliseconds(since: started)
            let recorded = (try? store.record(run)) != nil
            return GenerationOutcome(run: run, gates: gates, quote: nil, runRecorded: recorded)
        }

        guard SupportedLocale.isSupported(locale) else {
            return finish(.unavailable, reason: "locale \(locale) is not supported (en, de, es, fr, it, pt)")
        }
        guard report.canDraft else {
            return finish(.unavailable, reason: "no draft model available (primary \(report.primary), "
                          + "secondary \(report.secondary))")
        }

        let request = DraftRequest(locale: locale, theme: theme, seed: seed)
        let anchors = (try? recentRejectedDrafts()) ?? []
        let evaluation: Evaluation?
        do {
            evaluation = try await Deadline.run(until: deadline) { [self] in
                try await evaluate(request, report: report, anchors: anchors, partial: partial)
            }
        } catch let error as DraftError {
            return finish(.unavailable, reason: error.description)
        } catch let error as StoreError {
            run.persistence = .failed("\(error)")
            return finish(.storageFailed, reason: "\(error)")
        } catch is CancellationError {
            return finish(.timeout, reason: "cancelled by the caller; nothing stored")
        } catch let error as WordFrequencyError {
            return finish(.unavailable, reason: error.description)
        } catch {
            return finish(.unavailable, reason: "a backend call failed: \(error)")
        }
        guard let evaluation else {
            return finish(.timeout, reason: "the \(budget.kind.rawValue) budget of \(budget.limit) expired; nothing stored")
        }
        run.modelVersion = evaluation.modelVersion
        run.draftText = evaluation.draft
        run.noveltyProven = evaluation.noveltyProven
        run.judgeSource = evaluation.judgeSource
        switch evaluation.verdict {
        case .refused(let reason):
            return finish(.refused, reason: reason)
        case .rejected(let failure):
            return finish(.rejected, gate: failure.gate, reason: failure.reason, gates: evaluation.gates)
        case .accepted(let quote):
            run.branch = .accepted
            run.elapsedMilliseconds = Self.milliseconds(since: started)
            do {
                let id = try store.persist(quote, run: run)
                run.persistence = .stored
                run.quoteID = id
                return GenerationOutcome(run: run, gates: evaluation.gates, quote: try? store.quote(id: id), runRecorded: true)
            } catch {
                run.persistence = .failed("\(error)")
                return finish(.storageFailed, reason: "\(error)", gates: evaluation.gates)
            }
        }
    }

    private struct Evaluation: Sendable {
        enum Verdict: Sendable {
            case refused(String)
            case rejected(GateResult)
            case accepted(GeneratedQuote)
        }
        var draft: String?
        var modelVersion: String?
        var gates: [GateResult] = []
        var noveltyProven = false
        var judgeSource: String?
        var verdict: Verdict = .refused("not evaluated")
    }

    /// Steps 2–6 for one draft (runs under the deadline; cancellable at each await).
    private func evaluate(_ request: DraftRequest, report: ReadinessReport, anchors: [String],
                          partial: @escaping @Sendable (String) -> Void) async throws -> Evaluation {
        var evaluation = Evaluation()
        switch try await writer.write(request, partial: partial) {
        case .refused(let reason, let version):
            evaluation.modelVersion = version
            evaluation.verdict = .refused(reason)
            return evaluation
        case .draft(let text, let version):
            evaluation.draft = text
            evaluation.modelVersion = version
        }
        let text = evaluation.draft!.trimmingCharacters(in: .whitespacesAndNewlines)
        try Task.checkCancellation()

        for result in gate.evaluate(evaluation.draft!, locale: request.locale) {
            evaluation.gates.append(result)
            if !result.passed { evaluation.verdict = .rejected(result); return evaluation }
        }

        let novelty = try await NoveltyGate().evaluate(text, embedder: report.embedder.isAvailable ? embedder : nil,
                                                       store: store, backfill: true)
        evaluation.gates.append(novelty.result)
        evaluation.noveltyProven = novelty.proven
        if !novelty.result.passed { evaluation.verdict = .rejected(novelty.result); return evaluation }

        let distinctiveness = try self.distinctiveness.score(text, locale: request.locale, recentRejections: anchors)
        let judged = try await JudgeStep(judge: report.judge.isAvailable ? judge : nil, availability: report.judge,
                                         calibration: judgeCalibration)
            .evaluate(text, locale: request.locale, distinctiveness: distinctiveness)
        evaluation.gates.append(judged.result)
        evaluation.judgeSource = judged.source
        if !judged.result.passed { evaluation.verdict = .rejected(judged.result); return evaluation }

        let distinct = DistinctivenessScorer.result(distinctiveness)
        evaluation.gates.append(distinct)
        if !distinct.passed { evaluation.verdict = .rejected(distinct); return evaluation }

        try Task.checkCancellation()
        let scores = QuoteScores(judge: judged.scores, judgeSource: judged.source, distinctiveness: distinctiveness.score)
        let tags = QuoteTags(themes: request.theme.map { [$0.lowercased()] } ?? [])
        evaluation.verdict = .accepted(GeneratedQuote(
            text: text, locale: SupportedLocale.language(of: request.locale), tags: tags, scores: scores,
            modelVersion: evaluation.modelVersion ?? "unknown",
            embedding: novelty.embedding.map { (embedder!.model, $0) }))
        return evaluation
    }

    private func recentRejectedDrafts() throws -> [String] {
        try store.runs(limit: 200).filter { $0.branch == .rejected }.compactMap(\.draftText)
            .prefix(Self.negativeAnchorCount).map { $0 }
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}
