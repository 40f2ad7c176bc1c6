/// Sources/QuoteLibrary/README.md, "The pipeline", step 5: ask the judge; accept overall ≥ 6. When
/// the judge is unavailable, throws, refuses or answers with anything but valid scores, or its
/// measured calibration says it cannot tell good lines from generic ones, the bounded
/// `FallbackJudge` stands in, with its own calibrated cutoff, and `source` says why.
struct JudgeStep: Sendable {
    static let acceptance = 6.0

    let judge: Judge?
    let availability: SideAvailability
    /// The judge's measured discrimination (`tandem eval --judge`); nil when never measured.
    var calibration: JudgeCalibration? = nil

    struct Outcome: Sendable {
        let scores: JudgeScores
        /// "model", or "fallback: <why>".
        let source: String
        let result: GateResult
    }

    func evaluate(_ text: String, locale: String, distinctiveness: DistinctivenessScorer.Breakdown) async throws -> Outcome {
        let scores: JudgeScores
        let source: String
        if judge != nil, let distrust = calibration?.distrust(language: SupportedLocale.language(of: locale)) {
            scores = FallbackJudge.scores(text, distinctiveness: distinctiveness)
            source = "fallback: \(distrust)"
        } else if let judge {
            do {
                switch try await judge.judge(draft: text, locale: locale) {
                case .scores(let given):
                    scores = try JudgeScores.parse(json: Self.json(given))
                    source = "model"
                case .json(let raw):
                    scores = try JudgeScores.parse(json: raw)
                    source = "model"
                case .refused(let why):
                    throw JudgeError(.refused, why)
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                try Task.checkCancellation()
                scores = FallbackJudge.scores(text, distinctiveness: distinctiveness)
                source = "fallback: \(error)"
            }
        } else {
            scores = FallbackJudge.scores(text, distinctiveness: distinctiveness)
            source = "fallback: judge \(availability.isAvailable ? "not configured" : "unavailable (\(availability))")"
        }
        let cutoff = source == "model" ? Self.acceptance : FallbackJudge.acceptance
        let result = scores.overall >= cutoff
            ? GateResult.pass(.judge, score: scores.overall, note: source == "model" ? nil : source)
            : GateResult.fail(.judge, "overall \(scores.overall) < \(cutoff) (quality \(scores.quality), originality "
                              + "\(scores.originality), warmth \(scores.warmth); \(source))", score: scores.overall)
        return Outcome(scores: scores, source: source, result: result)
    }

    /// Re-validates decoded scores through the same range checks as raw JSON.
    private static func json(_ scores: JudgeScores) -> String {
        "{\"quality\": \(scores.quality), \"originality\": \(scores.originality), \"warmth\": \(scores.warmth), "
            + "\"overall\": \(scores.overall)}"
    }
}
