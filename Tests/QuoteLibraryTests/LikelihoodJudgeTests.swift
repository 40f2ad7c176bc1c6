import Foundation
import Synchronization
import Testing
@testable import QuoteLibrary

@Suite("The likelihood judge")
struct LikelihoodJudgeTests {
    /// Likelier after one context than the other by a set margin; records what it was asked.
    final class ScriptedScorer: TextScorer, @unchecked Sendable {
        let goodMinusGeneric: Double
        let asked = Mutex<[(continuation: String, context: String, locale: String)]>([])
        init(goodMinusGeneric: Double) { self.goodMinusGeneric = goodMinusGeneric }

        func logLikelihood(of continuation: String, after context: String, locale: String) async throws -> Double {
            asked.withLock { $0.append((continuation, context, locale)) }
            return context.hasPrefix("Lines from a notebook") ? -20 + goodMinusGeneric : -20
        }
    }

    struct FailingScorer: TextScorer {
        func logLikelihood(of continuation: String, after context: String, locale: String) async throws -> Double {
            throw JudgeError(.unavailable, "scorer down")
        }
    }

    @Test func theScoreIsTheProbabilityOfAGoodLineFromTheLogOdds() {
        #expect(LikelihoodJudge.overall(logOdds: 0) == 5.5)
        #expect(LikelihoodJudge.overall(logOdds: 40) == 10)
        #expect(LikelihoodJudge.overall(logOdds: -40) == 1)
        #expect(LikelihoodJudge.overall(logOdds: log(4)) == 8.2)  // P(good) = 0.8
        // The acceptance cutoff of 6 is P(good) ≥ 5/9: log-odds ≥ log(5/4).
        #expect(LikelihoodJudge.overall(logOdds: log(1.25)) == 6)
    }

    @Test func aDraftLikelierAfterTheGoodLinesIsAcceptedAndOneLikelierAfterTheGenericOnesIsNot() async throws {
        for (margin, accepted) in [(3.0, true), (-3.0, false)] {
            let scorer = ScriptedScorer(goodMinusGeneric: margin)
            let answer = try await LikelihoodJudge(scorer: scorer).judge(draft: "  Oil the squeaky gate before the neighbours wake.\n", locale: "en-US")
            guard case .scores(let scores) = answer else {
                Issue.record("expected scores, got \(answer)")
                continue
            }
            #expect(scores.quality == scores.overall && scores.originality == scores.overall && scores.warmth == scores.overall)
            #expect((scores.overall >= JudgeStep.acceptance) == accepted, "\(scores)")
            let asked = scorer.asked.withLock { $0 }
            #expect(asked.map(\.continuation) == Array(repeating: "Oil the squeaky gate before the neighbours wake.", count: 2))
            #expect(asked.allSatisfy { $0.locale == "en-US" && $0.context.hasSuffix("\n- ") })
        }
    }

    /// The examples are in the draft's language, from the tuning half only, so the calibration on
    /// the held-out half never sees a line the judge was shown.
    @Test func theExamplesAreInTheDraftsLanguageAndNeverHeldOut() async throws {
        let lines = JudgeCalibrationTests.lines
        for language in SupportedLocale.languages.sorted() {
            let examples = try #require(JudgeExamples.byLanguage[language])
            #expect(examples.good.count == 6 && examples.generic.count == 6)
            #expect(Set(examples.good).isSubset(of: try lines.tuning(language, .good)), "\(language)")
            #expect(Set(examples.generic).isSubset(of: try lines.tuning(language, .generic)), "\(language)")
            let scorer = ScriptedScorer(goodMinusGeneric: 1)
            _ = try await LikelihoodJudge(scorer: scorer).judge(draft: "Une ligne.", locale: language)
            let contexts = scorer.asked.withLock { $0.map(\.context) }
            #expect(contexts == [examples.context(.good), examples.context(.generic)])
            #expect(contexts[0].contains(examples.good[0]) && contexts[1].contains(examples.generic[5]))
        }
    }

    @Test func aLanguageWithoutExamplesOrAFailingScorerIsNoAnswer() async throws {
        await #expect(throws: JudgeError.self) {
            _ = try await LikelihoodJudge(scorer: ScriptedScorer(goodMinusGeneric: 1)).judge(draft: "Een goede zin hier.", locale: "nl")
        }
        await #expect(throws: JudgeError.self) {
            _ = try await LikelihoodJudge(scorer: ScriptedScorer(goodMinusGeneric: 1)).judge(draft: " \n", locale: "en")
        }
        await #expect(throws: JudgeError.self) {
            _ = try await LikelihoodJudge(scorer: FailingScorer()).judge(draft: "A line.", locale: "en")
        }
    }
}
