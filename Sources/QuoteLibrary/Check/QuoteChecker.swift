/// Runs the gates on a given draft without generating: every deterministic check (not only up to
/// the first failure), novelty against the library (storing only vectors it lacks), the register
/// as the pipeline asks it (a failure listed under the gate it stands for): on novelty's vector
/// for a draft the rules pass, and for one they reject, to name the cause of the rules' first
/// failure (`RegisterStep.cause`, which reads a comment after the line, or a long sentence's last clauses, alone;
/// on novelty's reading of the draft, not a second one), the judge only when
/// one is given (standing aside where its calibration does not trust it, as in the pipeline),
/// distinctiveness, and taste where it applies. For tuning and fixture tests.
public struct QuoteChecker: Sendable {
    public let store: QuoteStore?
    public let embedder: Embedder?
    public let judge: Judge?
    public let judgeCalibration: JudgeCalibration?
    public let gate: DeterministicGate
    public let register: RegisterStep
    public let distinctiveness: DistinctivenessScorer

    /// Without `gate`, the deterministic gate looks words up in the distinctiveness tables.
    public init(store: QuoteStore?, embedder: Embedder?, judge: Judge? = nil, judgeCalibration: JudgeCalibration? = nil,
                gate: DeterministicGate? = nil, register: RegisterStep = RegisterStep(), distinctiveness: DistinctivenessScorer) {
        let gate = gate ?? DeterministicGate(vocabulary: distinctiveness.frequencies)
        (self.store, self.embedder, self.judge, self.judgeCalibration, self.gate, self.register, self.distinctiveness) =
            (store, embedder, judge, judgeCalibration, gate, register, distinctiveness)
    }

    /// `progress` reports the library being embedded first, when it lacks vectors of the embedder's model.
    public func check(_ text: String, locale: String, progress: LibraryEmbedding.Progress? = nil) async -> CheckReport {
        var gates = gate.evaluate(text, locale: locale)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // The failure the pipeline would reject the draft with.
        let rulesFailure = gates.first { !$0.passed }
        var proof: NoveltyProof?
        do {
            let novelty = try await NoveltyGate().evaluate(trimmed, locale: locale, embedder: embedder, store: store, progress: progress)
            gates.append(novelty.result)
            proof = novelty.proof
            if rulesFailure == nil, let flagged = register.evaluate(vector: novelty.proof?.vector, tokens: novelty.proof?.tokenStates,
                                                                    model: novelty.proof?.model).failure {
                gates.append(flagged)
            }
        } catch {
            gates.append(.fail(.novelty, "novelty could not be checked: \(error)"))
        }
        if let rulesFailure, let embedder, RegisterStep.readsCause(of: rulesFailure, in: trimmed),
           let cause = try? await register.cause(of: rulesFailure, text: trimmed, language: SupportedLocale.language(of: locale), embedder: embedder,
                                                 whole: proof.flatMap { $0.model == embedder.model ? ($0.vector, $0.tokenStates) : nil }).failure,
           cause != rulesFailure {
            gates.append(cause)
        }
        let taste = TasteStep().evaluate(locale: locale, vector: proof?.vector, model: proof?.model).result
        let distinctiveness: DistinctivenessScorer.Breakdown
        do {
            distinctiveness = try self.distinctiveness.score(trimmed, locale: locale, taste: taste?.score)
        } catch {
            gates.append(.fail(.distinctiveness, "distinctiveness could not be scored: \(error)"))
            return CheckReport(accepted: false, detectedLanguage: detectedLanguage(trimmed), gates: gates)
        }
        if let judge {
            do {
                gates.append(try await JudgeStep(judge: judge, availability: .available, calibration: judgeCalibration)
                    .evaluate(trimmed, locale: locale, distinctiveness: distinctiveness).result)
            } catch {
                gates.append(.fail(.judge, "judge could not be asked: \(error)"))
            }
        }
        gates.append(DistinctivenessScorer.result(distinctiveness))
        if let taste { gates.append(taste) }
        return CheckReport(accepted: gates.allSatisfy(\.passed), detectedLanguage: detectedLanguage(trimmed), gates: gates)
    }

    // A profile failure is already the language gate's reason.
    private func detectedLanguage(_ text: String) -> String? {
        (try? gate.identifier.identify(text))?.language
    }
}
