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
        #expect(calibration.goodLines == 207 && calibration.genericLines == 205 && calibration.unanswered == 0)
        #expect(calibration.auc > 0.9 && calibration.trusted && calibration.distrust == nil, "\(calibration)")
    }

    @Test(arguments: [ScriptedJudge.scoring(7), ScriptedJudge(behaviour: .fail),
                      ScriptedJudge(behaviour: .answer(.refused("no")))])
    func aJudgeThatCannotTellThemApartIsNotTrusted(judge: ScriptedJudge) async throws {
        let calibration = try await JudgeCalibration.measure(judge: judge, judgeModel: "flat", lines: Self.lines,
                                                             languages: ["fr"])
        #expect(calibration.auc == 0.5 && !calibration.trusted)
        #expect(calibration.distrust == "judge flat not trusted: AUC 0.500 < 0.7 on 104 good and 102 generic labelled lines")
    }

    @Test func anUntrustedJudgeIsNotAskedAndTheRunSaysWhy() async throws {
        let inverted = try await JudgeCalibration.measure(judge: InvertedJudge(), judgeModel: "inverted", lines: Self.lines,
                                                          languages: ["it"])
        #expect(inverted.auc < 0.1 && !inverted.trusted)
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        // The judge would reject (overall 2); the untrusted judge is not asked, the fallback accepts.
        let pipeline = QuotePipeline(store: store, readiness: FixedReadiness.allAvailable,
                                     writer: ScriptedWriter(drafts: [QuotePipelineTests.good]), judge: ScriptedJudge.scoring(2),
                                     embedder: LexicalEmbedder(), distinctiveness: TestScorer.scorer, judgeCalibration: inverted)
        let outcome = await pipeline.generate(locale: "en")
        #expect(outcome.run.branch == .accepted)
        #expect(outcome.run.judgeSource == "fallback: \(try #require(inverted.distrust))")
    }

    @Test func aCalibrationRoundTripsThroughItsFileAndACorruptFileIsAnError() throws {
        let folder = try TemporaryFolder()
        let path = folder.path(JudgeCalibration.fileName)
        #expect(try JudgeCalibration.load(path: path) == nil)
        let calibration = JudgeCalibration(judgeModel: "m", auc: 0.64, goodLines: 10, genericLines: 9, unanswered: 1)
        try calibration.write(to: path)
        #expect(try JudgeCalibration.load(path: path) == calibration)
        try "{\"auc\": 1}".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: EvaluationError.self) { try JudgeCalibration.load(path: path) }
    }
}
