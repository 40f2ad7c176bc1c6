import Foundation

/// How well a judge tells the labelled good lines from the generic ones (`tandem eval --judge`):
/// the AUC of its overall score, i.e. the chance that a random good line scores higher than a
/// random generic one (ties count half). 0.5 is a coin; below `minimumAUC` the judge is not trusted
/// and the bounded `FallbackJudge` stands in for it (Sources/QuoteLibrary/README.md, "Judge
/// calibration": a judge whose discrimination is not measured is not trusted). Trust is decided
/// per language, since a judge may serve some languages only, or judge some better.
public struct JudgeCalibration: Codable, Equatable, Sendable {
    public static let minimumAUC = 0.7

    /// One language's figures, or all languages' together.
    public struct Figures: Codable, Equatable, Sendable {
        public var auc: Double
        public var goodLines: Int
        public var genericLines: Int
        /// Lines the judge did not score (refused, failed, malformed, unavailable in the
        /// language); they count as its lowest score.
        public var unanswered: Int

        public init(auc: Double, goodLines: Int, genericLines: Int, unanswered: Int) {
            (self.auc, self.goodLines, self.genericLines, self.unanswered) = (auc, goodLines, genericLines, unanswered)
        }

        public var trusted: Bool { auc >= JudgeCalibration.minimumAUC }
    }

    /// The judge model's version, as its answers report it (or the backend id when unknown).
    public var judgeModel: String
    /// Every measured language together.
    public var overall: Figures
    /// Per measured language.
    public var languages: [String: Figures]

    public init(judgeModel: String, overall: Figures, languages: [String: Figures]) {
        (self.judgeModel, self.overall, self.languages) = (judgeModel, overall, languages)
    }

    /// Trusted in at least one language.
    public var trusted: Bool { languages.values.contains { $0.trusted } }

    /// Why the fallback stands in for a draft in `language`, for the run record; nil when the judge
    /// is trusted there.
    public func distrust(language: String) -> String? {
        guard let figures = languages[language] else {
            return "judge \(judgeModel) not trusted in \(language): its AUC was not measured there"
        }
        return figures.trusted ? nil : String(
            format: "judge %@ not trusted in %@: AUC %.3f < %.1f on %d good and %d generic labelled lines",
            judgeModel, language, figures.auc, Self.minimumAUC, figures.goodLines, figures.genericLines)
    }

    /// The file `tandem eval --judge` writes next to the config file.
    public static let fileName = "judge-calibration.json"

    /// The calibration stored at `path`; nil when there is none.
    public static func load(path: String) throws(EvaluationError) -> JudgeCalibration? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try JSONDecoder().decode(JudgeCalibration.self, from: data)
        } catch {
            throw EvaluationError("\(path): not a judge calibration (\(error)); run `tandem eval --judge` again")
        }
    }

    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The Mann–Whitney AUC of `good` over `generic` scores.
    public static func auc(good: [Double], generic: [Double]) -> Double {
        guard !good.isEmpty, !generic.isEmpty else { return 0.5 }
        var wins = 0.0
        for g in good {
            for b in generic { wins += g > b ? 1 : g == b ? 0.5 : 0 }
        }
        return wins / Double(good.count * generic.count)
    }

    /// Asks `judge` for every held-out labelled line of `languages` (the likelihood judge is shown
    /// tuning lines, so it is measured on lines it was never shown); an unanswered line scores 0.
    public static func measure(judge: Judge, judgeModel: String, lines: LabelledLines, languages: [String],
                               progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> JudgeCalibration {
        var batches: [(String, String, LabelledLines.Kind)] = []
        for language in languages {
            for kind in LabelledLines.Kind.allCases {
                batches += try lines.heldOut(language, kind).map { ($0, language, kind) }
            }
        }
        struct Scores { var good: [Double] = [], generic: [Double] = [], unanswered = 0 }
        var byLanguage: [String: Scores] = [:]
        for (index, (text, language, kind)) in batches.enumerated() {
            progress(index + 1, batches.count)
            var scores = byLanguage[language] ?? Scores()
            let overall: Double
            do {
                switch try await judge.judge(draft: text, locale: language) {
                case .scores(let given): overall = given.overall
                case .json(let raw): overall = try JudgeScores.parse(json: raw).overall
                case .refused: overall = 0; scores.unanswered += 1
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                try Task.checkCancellation()
                overall = 0
                scores.unanswered += 1
            }
            if kind == .good { scores.good.append(overall) } else { scores.generic.append(overall) }
            byLanguage[language] = scores
        }
        func figures(_ s: Scores) -> Figures {
            Figures(auc: auc(good: s.good, generic: s.generic), goodLines: s.good.count, genericLines: s.generic.count, unanswered: s.unanswered)
        }
        let all = byLanguage.values.reduce(into: Scores()) { total, s in
            total.good += s.good
            total.generic += s.generic
            total.unanswered += s.unanswered
        }
        return JudgeCalibration(judgeModel: judgeModel, overall: figures(all), languages: byLanguage.mapValues(figures))
    }
}
