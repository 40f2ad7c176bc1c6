import Foundation
import PluginFixtures
import Testing
@testable import QuoteLibrary

@Suite("Judge calibration on the labelled lines")
struct JudgeCalibrationTests {
    static let lines = LabelledLines(folder: PackagePaths.root + "/eval/lines")

    /// Scores a line as the bounded fallback would: a judge that sees what distinctiveness sees.
    struct FallbackLikeJudge: Judge {
        func judge(draft: String, locale: String) async throws -> JudgeAnswer {
            .scores(FallbackJudge.scores(draft, distinctiveness: try TestScorer.scorer.score(draft, locale: locale)))
        }
    }

    /// Prefers the generic lines: the worst judge possible.
    struct InvertedJudge: Judge {
        func judge(draft: String, locale: String) async throws -> JudgeAnswer {
            let score = try TestScorer.scorer.score(draft, locale: locale).score
            return .scores(JudgeScores(quality: 5, originality: 5, warmth: 5, overall: 10 - score * 0.9))
        }
    }

    @Test func aucCountsWinsAndHalfTies() {
        #expect(JudgeCalibration.auc(good: [3, 4], generic: [1, 2]) == 1)
        #expect(JudgeCalibration.auc(good: [1, 2], generic: [3, 4]) == 0)
        #expect(JudgeCalibration.auc(good: [5, 5], generic: [5, 5]) == 0.5)
        #expect(JudgeCalibration.auc(good: [2, 4], generic: [3]) == 0.5)
    }

    @Test func aJudgeThatSeparatesTheLinesIsTrusted() async throws {
        let calibration = try await JudgeCalibration.measure(judge: FallbackLikeJudge(), judgeModel: "fallback-like",
                                                             lines: Self.lines, languages: ["en", "de"])
        // The held-out halves only: 42 + 57 good, 48 + 50 generic.
        #expect(calibration.overall == JudgeCalibration.Figures(auc: calibration.overall.auc, goodLines: 99, genericLines: 98, unanswered: 0))
        #expect(calibration.languages.keys.sorted() == ["de", "en"] && calibration.languages["en"]?.goodLines == 42)
        #expect(calibration.overall.auc > 0.9 && calibration.trusted, "\(calibration)")
        #expect(calibration.distrust(language: "en") == nil && calibration.distrust(language: "de") == nil)
        #expect(calibration.distrust(language: "fr") == "judge fallback-like not trusted in fr: its AUC was not measured there")
    }

    @Test(arguments: [ScriptedJudge.scoring(7), ScriptedJudge(behaviour: .fail),
                      ScriptedJudge(behaviour: .answer(.refused("no")))])
    func aJudgeThatCannotTellThemApartIsNotTrusted(judge: ScriptedJudge) async throws {
        let calibration = try await JudgeCalibration.measure(judge: judge, judgeModel: "flat", lines: Self.lines,
                                                             languages: ["fr"])
        #expect(calibration.overall.auc == 0.5 && !calibration.trusted)
        #expect(calibration.distrust(language: "fr") == "judge flat not trusted in fr: AUC 0.500 < 0.7 on 50 good and 55 generic labelled lines")
    }

    /// Trust is per language: a judge that serves one language well stands in there only.
    @Test func aJudgeIsTrustedOnlyInTheLanguagesWhereItSeparatesTheLines() async throws {
        let figures = { (auc: Double) in JudgeCalibration.Figures(auc: auc, goodLines: 40, genericLines: 40, unanswered: auc == 0.5 ? 80 : 0) }
        let calibration = JudgeCalibration(judgeModel: "m", overall: figures(0.6), languages: ["en": figures(0.95), "de": figures(0.5)])
        #expect(calibration.trusted)
        let step = JudgeStep(judge: ScriptedJudge.scoring(9), availability: .available, calibration: calibration)
        let breakdown = try TestScorer.scorer.score(QuotePipelineTests.good, locale: "en")
        let english = try await step.evaluate(QuotePipelineTests.good, locale: "en-GB", distinctiveness: breakdown)
        #expect(english.source == "model" && english.scores.overall == 9)
        let german = try await step.evaluate(QuotePipelineTests.good, locale: "de", distinctiveness: breakdown)
        #expect(german.source == "fallback: judge m not trusted in de: AUC 0.500 < 0.7 on 40 good and 40 generic labelled lines")
        let french = try await step.evaluate(QuotePipelineTests.good, locale: "fr", distinctiveness: breakdown)
        #expect(french.source == "fallback: judge m not trusted in fr: its AUC was not measured there")
    }

    @Test func anUntrustedJudgeIsNotAskedAndTheRunSaysWhy() async throws {
        let inverted = try await JudgeCalibration.measure(judge: InvertedJudge(), judgeModel: "inverted", lines: Self.lines,
                                                          languages: ["en"])
        #expect(inverted.overall.auc < 0.1 && !inverted.trusted)
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        // The judge would reject (overall 2); the untrusted judge is not asked, the fallback accepts.
        let pipeline = QuotePipeline(store: store, readiness: FixedReadiness.allAvailable,
                                     writer: ScriptedWriter(drafts: [QuotePipelineTests.good]), judge: ScriptedJudge.scoring(2),
                                     embedder: LexicalEmbedder(), distinctiveness: TestScorer.scorer, judgeCalibration: inverted)
        let outcome = await pipeline.generate(locale: "en")
        #expect(outcome.run.branch == .accepted)
        #expect(outcome.run.judgeSource == "fallback: \(try #require(inverted.distrust(language: "en")))")
    }

    @Test func aCalibrationRoundTripsThroughItsFileAndACorruptFileIsAnError() throws {
        let folder = try TemporaryFolder()
        let path = folder.path(JudgeCalibration.fileName)
        #expect(try JudgeCalibration.load(path: path) == nil)
        let figures = JudgeCalibration.Figures(auc: 0.64, goodLines: 10, genericLines: 9, unanswered: 1)
        let calibration = JudgeCalibration(judgeModel: "m", overall: figures, languages: ["en": figures])
        try calibration.write(to: path)
        #expect(try JudgeCalibration.load(path: path) == calibration)
        try "{\"auc\": 1}".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: EvaluationError.self) { try JudgeCalibration.load(path: path) }
    }
}
