import Foundation

/// A model's likelihood of a text after a context (tandem_abi.h, `TANDEM_EXT_LOG_LIKELIHOOD`):
/// the natural log of its probability, summed over its tokens.
public protocol TextScorer: Sendable {
    func logLikelihood(of continuation: String, after context: String, locale: String) async throws -> Double
}

/// The likelihood judge (Sources/QuoteLibrary/README.md, "Judge"), two questions to a language
/// model, each with a cutoff at score 6:
///
/// - Is it a good line rather than a generic one (originality and warmth)? The model is shown a
///   list of good lines and, apart, a list of generic ones (`JudgeExamples`, in the draft's
///   language), and the judge asks how much likelier the draft is as the next line of the first
///   list than of the second. With the two lists as the two classes and even odds before, that
///   log-ratio is the log-odds that the draft is a good line (Bayes' rule), so the score needs no
///   fitted constant: 1 + 9 · P(good); 6 is P(good) ≥ 5/9.
/// - Does it end where a sentence can (quality)? The model's probability of the line's final marks
///   after the rest of it: a line cut off mid-phrase ("… the first snow of.") makes the full stop
///   unlikely. The score is 1 + 9 · σ(ln(P / `endingChance`) + ln(5/4)), so 6 is P = `endingChance`.
///
/// Overall is the lower of the two. Answers nothing (throws) in a language it has no examples for,
/// and the bounded fallback stands in.
public struct LikelihoodJudge: Judge {
    let scorer: TextScorer

    public init(scorer: TextScorer) { self.scorer = scorer }

    /// The least chance the judge model must give a line's final marks after the rest of it: the
    /// largest of 10%, 3%, 1%, 0.3%, 0.1% that rejects no complete or good line of the tuning halves
    /// of eval/dangling and eval/lines on Gemma 3 270M (Sources/QuoteLibrary/README.md, "Judge").
    static let endingChance = 0.003

    public func judge(draft: String, locale: String) async throws -> JudgeAnswer {
        let language = SupportedLocale.language(of: locale)
        guard let examples = JudgeExamples.byLanguage[language] else {
            throw JudgeError(.unavailable, "the likelihood judge has no example lines in \(language)")
        }
        let line = draft.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { throw JudgeError(.malformed, "nothing to judge: the draft is empty") }
        let good = try await scorer.logLikelihood(of: line, after: examples.context(.good), locale: locale)
        let generic = try await scorer.logLikelihood(of: line, after: examples.context(.generic), locale: locale)
        let contrast = Self.score(logOdds: good - generic)
        // A line with no final marks is the gate's to reject (sentenceEnd); the judge then has
        // nothing to ask about its ending.
        var ending = contrast
        if let (body, marks) = SentenceEnd.finalMarks(of: line, language: language), !body.isEmpty {
            let chance = try await scorer.logLikelihood(of: marks, after: body, locale: locale)
            ending = Self.score(logOdds: chance - log(Self.endingChance) + log(1.25))
        }
        return .scores(JudgeScores(quality: ending, originality: contrast, warmth: contrast, overall: min(ending, contrast)))
    }

    /// 1 + 9 · σ(logOdds), to two decimals.
    static func score(logOdds: Double) -> Double {
        let probability = 1 / (1 + exp(-logOdds))
        return ((1 + 9 * probability) * 100).rounded() / 100
    }
}

/// The lines the likelihood judge shows its model, per language (`JudgeExamples.byLanguage`,
/// written by scripts/prompt-examples.py from the tuning half of eval/lines).
struct JudgeExamples: Sendable {
    let good: [String]
    let generic: [String]

    /// The text the draft is scored after: a heading that says what the list holds, then its lines
    /// as a bulleted list, ending where the next line would begin.
    func context(_ kind: LabelledLines.Kind) -> String {
        let (heading, lines) = switch kind {
        case .good: ("Lines from a notebook of vivid, specific, original observations, each one concrete and fresh:", good)
        case .generic: ("Lines from a poster of generic, clichéd motivational sayings, each one a stock phrase:", generic)
        }
        return heading + "\n" + lines.map { "- \($0)\n" }.joined() + "- "
    }
}
