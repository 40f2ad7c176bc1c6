import Foundation

/// The generated-quote pipeline in the order of Sources/QuoteLibrary/README.md, "The pipeline":
/// readiness → draft → deterministic gate → novelty → judge → distinctiveness and taste →
/// one-transaction persist. Nothing is written until every gate accepts; every attempt, whatever
/// its end, is recorded as a run with its stage timings. One command (`generate`) has one budget
/// covering all of its attempts.
public struct QuotePipeline: Sendable {
    public let store: QuoteStore
    public let readiness: Readiness
    public let writer: DraftWriter
    public let judge: Judge?
    public let embedder: Embedder?
    public let gate: DeterministicGate
    public let escalation: EscalationPolicy
    public let clock: BudgetClock
    public let distinctiveness: DistinctivenessScorer
    /// The learned taste signal, scored with distinctiveness on the novelty gate's vector.
    public let taste: TasteStep
    /// The learned check for talk and credited sayings, right after novelty on its vector.
    public let register: RegisterStep
    /// The judge's measured discrimination; below `JudgeCalibration.minimumAUC` the fallback
    /// stands in for it and the run's judge source says why.
    public let judgeCalibration: JudgeCalibration?
    /// How drafts are asked for (`quote.draft_prompt`).
    public let draftPrompt: DraftPromptStyle

    /// How many recent rejected drafts count as negative anchors for distinctiveness.
    public static let negativeAnchorCount = 20
    /// Attempts per accepted quote wanted, when the caller does not say how many attempts. The
    /// default local model has 5–14% of its drafts accepted (README.md, "Measured on the real local
    /// model"): 4 attempts found a quote in 20–45% of commands, 12 find one in 49–84%, and 12 of its
    /// attempts (p95 about 0.6 s each) fit well within the foreground budget.
    public static let defaultAttemptsPerQuote = 12
    /// The most attempts one command may make.
    public static let maximumAttempts = 80

    /// The attempts a command for `count` quotes makes when the caller does not say.
    public static func defaultAttempts(count: Int) -> Int {
        min(maximumAttempts, count * defaultAttemptsPerQuote)
    }

    public init(store: QuoteStore, readiness: Readiness, writer: DraftWriter, judge: Judge?, embedder: Embedder?,
                distinctiveness: DistinctivenessScorer, judgeCalibration: JudgeCalibration? = nil,
                taste: TasteStep = TasteStep(), register: RegisterStep = RegisterStep(), gate: DeterministicGate? = nil,
                escalation: EscalationPolicy = .everyGate, draftPrompt: DraftPromptStyle = .instructions,
                clock: BudgetClock = ContinuousBudgetClock()) {
        // The gate's word check looks words up in the distinctiveness tables unless told otherwise.
        let gate = gate ?? DeterministicGate(vocabulary: distinctiveness.frequencies)
        (self.store, self.readiness, self.writer, self.judge, self.embedder, self.gate, self.draftPrompt) =
            (store, readiness, writer, judge, embedder, gate, draftPrompt)
        (self.distinctiveness, self.judgeCalibration, self.taste, self.register, self.escalation, self.clock) =
            (distinctiveness, judgeCalibration, taste, register, escalation, clock)
    }

    /// The same pipeline with another readiness (the evaluation masks sides per cell).
    public func replacingReadiness(_ readiness: Readiness) -> QuotePipeline {
        QuotePipeline(store: store, readiness: readiness, writer: writer, judge: judge, embedder: embedder,
                      distinctiveness: distinctiveness, judgeCalibration: judgeCalibration, taste: taste, register: register, gate: gate,
                      escalation: escalation, draftPrompt: draftPrompt, clock: clock)
    }

    /// One attempt within `budget`.
    public func generate(locale: String, theme: String? = nil, budget: Budget = .foreground, seed: UInt64? = nil,
                         partial: @escaping @Sendable (String) -> Void = { _ in }) async -> GenerationOutcome {
        await generate(count: 1, attempts: 1, locale: locale, theme: theme, budget: budget, seed: seed,
                       partial: { _, text in partial(text) })[0]
    }

    /// One command: up to `count` accepted quotes in at most `attempts` attempts (default
    /// `defaultAttempts(count:)`), every attempt (drafts and judge included) within the
    /// one `budget`. Attempt k uses seed `seed + k`. Stops at the deadline (the attempt in flight
    /// is cancelled and recorded as a timeout), when no model can serve or storing fails.
    /// `partial` gets the attempt's index and its streamed text. `count` < 1 asks for nothing.
    public func generate(count: Int, attempts: Int? = nil, locale: String, theme: String? = nil, budget: Budget,
                         seed: UInt64? = nil,
                         partial: @escaping @Sendable (Int, String) -> Void = { _, _ in }) async -> [GenerationOutcome] {
        guard count >= 1 else { return [] }
        let limit = attempts ?? Self.defaultAttempts(count: count)
        let deadline = clock.now + budget.limit
        var outcomes: [GenerationOutcome] = []
        var accepted = 0
        var escalated: Escalation?
        while accepted < count, outcomes.count < limit, !Task.isCancelled {
            let index = outcomes.count
            let request = DraftRequest(locale: locale, theme: theme, seed: seed.map { $0 &+ UInt64(index) },
                                       side: escalated == nil ? nil : .secondary,
                                       // The secondary is the routed chat model: it gets instructions.
                                       style: escalated == nil ? draftPrompt : .instructions)
            let outcome = await attempt(request, budget: budget, deadline: deadline, escalation: escalated,
                                        partial: { partial(index, $0) })
            outcomes.append(outcome)
            if outcome.run.branch == .accepted { accepted += 1 }
            if [.timeout, .unavailable, .storageFailed].contains(outcome.run.branch) { break }
            if escalated == nil { escalated = escalation(after: outcome) }
        }
        return outcomes
    }

    /// The escalation an attempt's end calls for: a primary's draft failed an escalating gate
    /// and the secondary can serve.
    private func escalation(after outcome: GenerationOutcome) -> Escalation? {
        let run = outcome.run
        guard run.branch == .rejected, run.servedBy == .primary, run.readiness.secondary.isAvailable,
              let gate = run.gate.flatMap(GateName.init(rawValue:)), escalation.gates.contains(gate)
        else { return nil }
        return Escalation(gate: gate, primaryModelVersion: run.modelVersion)
    }

    // MARK: One attempt

    private func attempt(_ request: DraftRequest, budget: Budget, deadline: Duration, escalation: Escalation?,
                         partial: @escaping @Sendable (String) -> Void) async -> GenerationOutcome {
        let started = clock.now
        let locale = request.locale
        let stages = StageLog()
        let report = await stages.measure(.readiness, on: clock) { await readiness.report(locale: locale) }
        var run = GenerationRun(startedAt: Timestamp.now(), locale: locale, budget: budget.kind.rawValue, readiness: report)
        run.escalation = escalation
        func finish(_ branch: TerminalBranch, gate: GateName? = nil, reason: String? = nil,
                    gates: [GateResult] = []) -> GenerationOutcome {
            run.branch = branch
            run.gate = gate?.rawValue
            run.reason = reason
            run.timings = stages.timings
            run.elapsedMilliseconds = (clock.now - started).wholeMilliseconds
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

        let anchors = (try? recentRejectedDrafts()) ?? []
        let evaluation: Evaluation?
        do {
            evaluation = try await Deadline.run(until: deadline, on: clock) { [self] in
                try await evaluate(request, report: report, anchors: anchors, stages: stages, partial: partial)
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
        run.servedBy = evaluation.servedBy
        run.draftText = evaluation.draft
        run.noveltyProven = evaluation.noveltyProven
        run.judgeSource = evaluation.judgeSource
        run.register = evaluation.register
        run.taste = evaluation.taste
        switch evaluation.verdict {
        case .refused(let reason):
            return finish(.refused, reason: reason)
        case .rejected(let failure):
            return finish(.rejected, gate: failure.gate, reason: failure.reason, gates: evaluation.gates)
        case .accepted(let quote):
            run.branch = .accepted
            let persistStart = clock.now
            do {
                let id = try store.persist(quote, run: run) { stored in
                    stored.timings = stages.timings
                    stored.timings[.persist] = (clock.now - persistStart).wholeMilliseconds
                    stored.elapsedMilliseconds = (clock.now - started).wholeMilliseconds
                    run = stored
                }
                return GenerationOutcome(run: run, gates: evaluation.gates, quote: try? store.quote(id: id), runRecorded: true)
            } catch {
                stages.record(.persist, (clock.now - persistStart).wholeMilliseconds)
                run.quoteID = nil
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
        var servedBy: DraftSide?
        var gates: [GateResult] = []
        var noveltyProven = false
        var judgeSource: String?
        var register: String?
        var taste: String?
        var verdict: Verdict = .refused("not evaluated")
    }

    /// Steps 2–6 for one draft (runs under the deadline; cancellable at each await). Each stage's
    /// time goes to `stages` as it ends, so a timed-out attempt keeps the times of what it finished.
    private func evaluate(_ request: DraftRequest, report: ReadinessReport, anchors: [String], stages: StageLog,
                          partial: @escaping @Sendable (String) -> Void) async throws -> Evaluation {
        var evaluation = Evaluation()
        let answer = try await stages.measure(.draft, on: clock) { try await writer.write(request, partial: partial) }
        switch answer {
        case .refused(let reason, let version):
            evaluation.modelVersion = version
            evaluation.verdict = .refused(reason)
            return evaluation
        case .draft(let text, let version, let side):
            evaluation.draft = text
            evaluation.modelVersion = version
            evaluation.servedBy = side
        }
        let draft = evaluation.draft!
        let text = draft.trimmingCharacters(in: .whitespacesAndNewlines)
        try Task.checkCancellation()

        let failure = stages.measure(.gates, on: clock) { () -> GateResult? in
            for result in gate.evaluate(draft, locale: request.locale, examples: request.examples) {
                evaluation.gates.append(result)
                if !result.passed { return result }
            }
            return nil
        }
        if let failure {
            guard RegisterStep.readsCause(of: failure, in: text), let embedder else { evaluation.verdict = .rejected(failure); return evaluation }
            let language = SupportedLocale.language(of: request.locale)
            let cause = try await stages.measure(.gates, on: clock) {
                try await self.register.cause(of: failure, text: text, language: language, embedder: embedder)
            }
            evaluation.register = cause.record
            if cause.failure != failure { evaluation.gates.append(cause.failure) }
            evaluation.verdict = .rejected(cause.failure)
            return evaluation
        }

        // A configured embedder that is unavailable is asked anyway: its failure rejects the
        // draft (novelty cannot be proven), where a missing embedder only leaves it unproven.
        let novelty = try await stages.measure(.novelty, on: clock) {
            try await NoveltyGate().evaluate(text, locale: request.locale, embedder: embedder, store: store)
        }
        evaluation.gates.append(novelty.result)
        evaluation.noveltyProven = novelty.proven
        if !novelty.result.passed { evaluation.verdict = .rejected(novelty.result); return evaluation }
        let register = stages.measure(.gates, on: clock) {
            self.register.evaluate(vector: novelty.proof?.vector, tokens: novelty.proof?.tokenStates, model: novelty.proof?.model)
        }
        evaluation.register = register.record
        if let flagged = register.failure {
            evaluation.gates.append(flagged)
            evaluation.verdict = .rejected(flagged)
            return evaluation
        }

        // The score comes first: the judge's fallback stands on it. It reads the embedding
        // through the taste model's log-odds, so taste is scored before it.
        let taste = stages.measure(.distinctiveness, on: clock) {
            self.taste.evaluate(locale: request.locale, vector: novelty.proof?.vector, model: novelty.proof?.model)
        }
        evaluation.taste = taste.record
        let distinctiveness = try stages.measure(.distinctiveness, on: clock) {
            try self.distinctiveness.score(text, locale: request.locale, recentRejections: anchors, taste: taste.result?.score)
        }
        let judged = try await stages.measure(.judge, on: clock) {
            try await JudgeStep(judge: report.judge.isAvailable ? judge : nil, availability: report.judge,
                                calibration: judgeCalibration)
                .evaluate(text, locale: request.locale, distinctiveness: distinctiveness)
        }
        evaluation.gates.append(judged.result)
        evaluation.judgeSource = judged.source
        if !judged.result.passed { evaluation.verdict = .rejected(judged.result); return evaluation }

        let distinct = DistinctivenessScorer.result(distinctiveness)
        evaluation.gates.append(distinct)
        if !distinct.passed { evaluation.verdict = .rejected(distinct); return evaluation }

        if let result = taste.result {
            evaluation.gates.append(result)
            if !result.passed { evaluation.verdict = .rejected(result); return evaluation }
        }

        try Task.checkCancellation()
        let scores = QuoteScores(judge: judged.scores, judgeSource: judged.source, distinctiveness: distinctiveness.score)
        let tags = QuoteTags(themes: request.theme.map { [$0.lowercased()] } ?? [])
        evaluation.verdict = .accepted(GeneratedQuote(
            text: text, locale: SupportedLocale.language(of: request.locale), tags: tags, scores: scores,
            modelVersion: evaluation.modelVersion ?? "unknown",
            novelty: novelty.proof))
        return evaluation
    }

    private func recentRejectedDrafts() throws -> [String] {
        try store.runs(limit: 200).filter { $0.branch == .rejected }.compactMap(\.draftText)
            .prefix(Self.negativeAnchorCount).map { $0 }
    }
}

/// Stage timings shared between an attempt and its evaluation, which runs in a task the
/// deadline may abandon: each stage is recorded as soon as it ends.
private final class StageLog: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded = StageTimings()

    var timings: StageTimings { lock.withLock { recorded } }

    func record(_ stage: StageTimings.Stage, _ milliseconds: Int) {
        lock.withLock { recorded[stage] = (recorded[stage] ?? 0) + milliseconds }
    }

    func measure<T>(_ stage: StageTimings.Stage, on clock: BudgetClock, _ body: () throws -> T) rethrows -> T {
        let start = clock.now
        defer { record(stage, (clock.now - start).wholeMilliseconds) }
        return try body()
    }

    func measure<T>(_ stage: StageTimings.Stage, on clock: BudgetClock, _ body: () async throws -> T) async rethrows -> T {
        let start = clock.now
        defer { record(stage, (clock.now - start).wholeMilliseconds) }
        return try await body()
    }
}
