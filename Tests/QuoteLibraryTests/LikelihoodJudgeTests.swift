import Foundation
import Synchronization
import Testing
@testable import QuoteLibrary

@Suite("The likelihood judge")
struct LikelihoodJudgeTests {
    /// Likelier after one list of examples than the other by a set margin, and gives a line's
    /// final marks a set chance; records what it was asked.
    final class ScriptedScorer: TextScorer, @unchecked Sendable {
        let goodMinusGeneric: Double
        let endingChance: Double
        let asked = Mutex<[(continuation: String, context: String, locale: String)]>([])
        init(goodMinusGeneric: Double, endingChance: Double = 0.5) { (self.goodMinusGeneric, self.endingChance) = (goodMinusGeneric, endingChance) }

        func logLikelihood(of continuation: String, after context: String, locale: String) async throws -> Double {
            asked.withLock { $0.append((continuation, context, locale)) }
            if context.hasPrefix("Lines from a notebook") { return -20 + goodMinusGeneric }
            return context.hasPrefix("Lines from a poster") ? -20 : log(endingChance)
        }
    }

    struct FailingScorer: TextScorer {
        func logLikelihood(of continuation: String, after context: String, locale: String) async throws -> Double {
            throw JudgeError(.unavailable, "scorer down")
        }
    }

    @Test func theScoreIsTheProbabilityOfAGoodLineFromTheLogOdds() {
        #expect(LikelihoodJudge.score(logOdds: 0) == 5.5)
        #expect(LikelihoodJudge.score(logOdds: 40) == 10)
        #expect(LikelihoodJudge.score(logOdds: -40) == 1)
        #expect(LikelihoodJudge.score(logOdds: log(4)) == 8.2)  // P(good) = 0.8
        // The acceptance cutoff of 6 is P(good) ≥ 5/9: log-odds ≥ log(5/4).
        #expect(LikelihoodJudge.score(logOdds: log(1.25)) == 6)
    }

    /// A line the model does not expect to end where it does ("… the first snow of.") fails on
    /// quality, however good its words; the cutoff is the model giving its final marks
    /// `endingChance`.
    @Test func aLineThatStopsWhereNoSentenceEndsFailsOnQuality() async throws {
        let line = "Keep a photograph of the first snow on the fence, a quiet memory of."
        for (chance, passes) in [(0.2, true), (LikelihoodJudge.endingChance * 1.01, true), (LikelihoodJudge.endingChance * 0.99, false), (1e-5, false)] {
            let scorer = ScriptedScorer(goodMinusGeneric: 8, endingChance: chance)
            guard case .scores(let scores) = try await LikelihoodJudge(scorer: scorer).judge(draft: line, locale: "en") else {
                Issue.record("no scores")
                continue
            }
            #expect(scores.originality > 9.9 && scores.warmth == scores.originality)
            #expect((scores.quality >= JudgeStep.acceptance) == passes && scores.overall == min(scores.quality, scores.originality), "\(chance): \(scores)")
            let ending = scorer.asked.withLock { $0.last! }
            #expect(ending.context == "Keep a photograph of the first snow on the fence, a quiet memory of" && ending.continuation == ".")
        }
        // French may space its final "!": the space goes with the marks. No marks: nothing to ask.
        let french = ScriptedScorer(goodMinusGeneric: 8)
        _ = try await LikelihoodJudge(scorer: french).judge(draft: "Range les pots de confiture sur l'étagère du haut !", locale: "fr")
        #expect(french.asked.withLock { $0.last!.continuation } == "!")
        let unfinished = ScriptedScorer(goodMinusGeneric: 8)
        _ = try await LikelihoodJudge(scorer: unfinished).judge(draft: "Range les pots de confiture sur l'étagère", locale: "fr")
        #expect(unfinished.asked.withLock { $0.count } == 2)
    }

    @Test func aDraftLikelierAfterTheGoodLinesIsAcceptedAndOneLikelierAfterTheGenericOnesIsNot() async throws {
        for (margin, accepted) in [(3.0, true), (-3.0, false)] {
            let scorer = ScriptedScorer(goodMinusGeneric: margin)
            let answer = try await LikelihoodJudge(scorer: scorer).judge(draft: "  Oil the squeaky gate before the neighbours wake.\n", locale: "en-US")
            guard case .scores(let scores) = answer else {
                Issue.record("expected scores, got \(answer)")
                continue
            }
            // The ending is likely (P 0.5): the contrast decides.
            #expect(scores.quality > 9.9 && scores.warmth == scores.originality && scores.overall == scores.originality)
            #expect((scores.overall >= JudgeStep.acceptance) == accepted, "\(scores)")
            let asked = scorer.asked.withLock { $0 }
            #expect(asked.prefix(2).map(\.continuation) == Array(repeating: "Oil the squeaky gate before the neighbours wake.", count: 2))
            #expect(asked.prefix(2).allSatisfy { $0.locale == "en-US" && $0.context.hasSuffix("\n- ") })
            #expect(asked.count == 3 && asked[2].continuation == "." && asked[2].context == "Oil the squeaky gate before the neighbours wake")
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
            #expect(contexts == [examples.context(.good), examples.context(.generic), "Une ligne"])
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
