import Foundation

/// How well a judge tells the labelled good lines from the generic ones (`tandem eval --judge`):
/// the AUC of its overall score, i.e. the chance that a random good line scores higher than a
/// random generic one (ties count half). 0.5 is a coin; below `minimumAUC` the judge is not trusted
/// and the bounded `FallbackJudge` stands in for it (Sources/QuoteLibrary/README.md, "Judge
/// calibration": a judge whose discrimination is not measured is not trusted).
public struct JudgeCalibration: Codable, Equatable, Sendable {
    public static let minimumAUC = 0.7

    /// The judge model's version, as its answers report it (or the backend id when unknown).
    public var judgeModel: String
    public var auc: Double
    public var goodLines: Int
    public var genericLines: Int
    /// Lines the judge did not score (refused, failed, malformed); they count as its lowest score.
    public var unanswered: Int

    public var trusted: Bool { auc >= Self.minimumAUC }

    /// Why the fallback stands in, for the run record; nil when the judge is trusted.
    public var distrust: String? {
        trusted ? nil : String(format: "judge %@ not trusted: AUC %.3f < %.1f on %d good and %d generic labelled lines",
                               judgeModel, auc, Self.minimumAUC, goodLines, genericLines)
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

    /// Asks `judge` for every labelled line of `languages`; an unanswered line scores 0.
    public static func measure(judge: Judge, judgeModel: String, lines: LabelledLines, languages: [String],
                               progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> JudgeCalibration {
        var batches: [(String, String, LabelledLines.Kind)] = []
        for language in languages {
            for kind in LabelledLines.Kind.allCases {
                batches += try lines.all(language, kind).map { ($0, language, kind) }
            }
        }
        var good: [Double] = [], generic: [Double] = [], unanswered = 0
        for (index, (text, language, kind)) in batches.enumerated() {
            progress(index + 1, batches.count)
            let overall: Double
            do {
                switch try await judge.judge(draft: text, locale: language) {
                case .scores(let scores): overall = scores.overall
                case .json(let raw): overall = try JudgeScores.parse(json: raw).overall
                case .refused: overall = 0; unanswered += 1
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                try Task.checkCancellation()
                overall = 0
                unanswered += 1
            }
            if kind == .good { good.append(overall) } else { generic.append(overall) }
        }
        return JudgeCalibration(judgeModel: judgeModel, auc: auc(good: good, generic: generic), goodLines: good.count,
                                genericLines: generic.count, unanswered: unanswered)
    }
}
