import Foundation

/// Sources/QuoteLibrary/README.md, "The pipeline", step 6: a deterministic 0–10 score; a draft needs ≥ 5.
///
/// The seed's factors, computed from a word-frequency corpus instead of word lists:
/// - concrete imagery, named feelings and physical actions are the specific words of a line
///   ("mailbox", "homesick", "knead"), and specific words are rare ones: each word adds
///   `specificity` by how far its Zipf frequency lies below 5 (0 at ≥ 5, 1 at ≤ 3.5), and a word
///   below Zipf 3 also counts as a `rareWord`. Vague evaluations ("great", "beautiful") and big
///   abstractions ("life", "dream") are common words and earn nothing;
/// - `contentWords`: words below Zipf 5.8 (not function words), how much a line says;
/// - `abstractions`: words with an abstract-noun ending (-ness, -heit, -dad, -ité …);
/// - `formulas`: formula shapes ("Every day is …", "never …", "your dreams", "than you think");
/// - `agency`: the line addresses or names a person (I, you, we …); recorded for the fallback
///   judge's warmth, not scored: generic lines address "you" as often as good ones do;
/// - `taste`: what the sentence embedding says, the taste model's log-odds that the line is a good
///   one (`TasteModel`, fitted on good lines against generic ones and fragments, of several writers). Word rarity alone
///   misses a plain line that is specific by what it says rather than by rare words ("The best
///   soup in the house is always the one made from Thursday's leftovers."); the embedding reads it;
/// - negative anchors: −3 when the draft is close (lexical cosine ≥ 0.8) to a recently rejected
///   draft, −1.5 when it is fairly close (≥ 0.6), so the model cannot resubmit a rejected idea.
///
/// The word weights are a logistic regression fitted on the tuning half of the labelled lines in
/// `eval/lines` (good against generic, all six languages together). With an embedding, the
/// taste log-odds are added to the words' log-odds (`tasteWeight` 1): two estimates of the same
/// odds from separate evidence. On the held-out good lines (eval/lines and eval/drafts sets 4 and 6, 647)
/// the words alone (taste behind them as its own step) accept 594 through the gate, words and
/// embedding 626; a weight of 2 accepts one
/// more, and one more of 50 of SmolLM2's drafts. The log-odds map to the 0–10 scale as
/// 5 + 1.25 × logit, so 5 stays the boundary. Without an embedding (no embedder, or no taste
/// model for its vectors) the words stand alone.
/// The held-out figures are asserted in `DistinctivenessTests` and `QuoteSignalsOnTheEncoderTests`
/// and listed in `Sources/QuoteLibrary/README.md`.
public struct DistinctivenessScorer: Sendable {
    public static let acceptance = 5.0

    /// Fitted weights (see the type's documentation).
    static let weights = (specificity: 1.07, rareWords: 0.63, contentWords: 0.96, abstractions: -1.10, formulas: -1.96)
    static let bias = -7.335
    /// How much the taste model's log-odds count against the words' (see the type's documentation).
    static let tasteWeight = 1.0
    static let scale = 1.25
    /// Zipf thresholds: fully specific at or below `specificFloor`, not at all at `specificCeiling`.
    static let specificFloor = 3.5, specificCeiling = 5.0, rareBelow = 3.0, contentBelow = 5.8

    public struct Breakdown: Codable, Equatable, Sendable {
        public var specificity = 0.0
        public var rareWords = 0, contentWords = 0, abstractions = 0, formulas = 0
        public var agency = false
        /// The taste model's log-odds for the line's embedding; nil when the words stood alone.
        public var taste: Double?
        public var anchorSimilarity = 0.0
        public var score = 0.0
    }

    public let frequencies: WordFrequencies
    private let anchorEmbedder = LexicalEmbedder()
    private static let formulaExpressions: [NSRegularExpression] = DistinctivenessPatterns.formulas.map {
        try! NSRegularExpression(pattern: $0)
    }

    public init(frequencies: WordFrequencies) {
        self.frequencies = frequencies
    }

    /// The words as the frequency tables hold them: folded, split at apostrophes and hyphens,
    /// numbers left out.
    static func tokens(_ text: String) -> [String] {
        QuoteText.phraseKey(text).split(whereSeparator: { $0 == " " || $0 == "-" }).map(String.init)
            .filter { !$0.allSatisfy(\.isNumber) }
    }

    /// `taste` is the taste model's log-odds for the line's embedding (`TasteStep`), nil without one.
    public func score(_ text: String, locale: String, recentRejections: [String] = [],
                      taste: Double? = nil) throws(WordFrequencyError) -> Breakdown {
        let language = SupportedLocale.language(of: locale)
        let table = try frequencies.table(for: language)
        let tokens = Self.tokens(text)
        var breakdown = Breakdown()
        for token in tokens {
            let zipf = table[token] ?? 0
            let span = Self.specificCeiling - Self.specificFloor
            breakdown.specificity += min(1, max(0, (Self.specificCeiling - zipf) / span))
            if zipf < Self.rareBelow { breakdown.rareWords += 1 }
            if zipf < Self.contentBelow { breakdown.contentWords += 1 }
        }
        let endings = DistinctivenessPatterns.abstractEndings[language] ?? []
        breakdown.abstractions = tokens.filter { token in
            token.count >= DistinctivenessPatterns.abstractMinimumLength && endings.contains { token.hasSuffix($0) }
        }.count
        let folded = " " + tokens.joined(separator: " ") + " "
        let range = NSRange(folded.startIndex..., in: folded)
        breakdown.formulas = Self.formulaExpressions.filter { $0.firstMatch(in: folded, range: range) != nil }.count
        breakdown.agency = tokens.contains(where: (DistinctivenessPatterns.agents[language] ?? []).contains)
        let vector = anchorEmbedder.vector(text)
        breakdown.anchorSimilarity = Double(recentRejections.map { NoveltyGate.cosine(vector, anchorEmbedder.vector($0)) }.max() ?? 0)

        let w = Self.weights
        let logit = Self.bias + w.specificity * breakdown.specificity + w.rareWords * Double(breakdown.rareWords)
            + w.contentWords * Double(breakdown.contentWords) + w.abstractions * Double(breakdown.abstractions)
            + w.formulas * Double(breakdown.formulas) + Self.tasteWeight * (taste ?? 0)
        breakdown.taste = taste
        var score = 5 + Self.scale * logit
        score -= breakdown.anchorSimilarity >= 0.8 ? 3 : breakdown.anchorSimilarity >= 0.6 ? 1.5 : 0
        breakdown.score = (min(10, max(0, score)) * 100).rounded() / 100
        return breakdown
    }

    static func result(_ breakdown: Breakdown) -> GateResult {
        breakdown.score >= acceptance ? .pass(.distinctiveness, score: breakdown.score)
            : .fail(.distinctiveness, "score \(breakdown.score) < 5 (specificity "
                    + "\(String(format: "%.2f", breakdown.specificity)), rare words \(breakdown.rareWords), content words "
                    + "\(breakdown.contentWords), abstractions \(breakdown.abstractions), formulas \(breakdown.formulas), "
                    + "anchor similarity \(String(format: "%.2f", breakdown.anchorSimilarity))"
                    + (breakdown.taste.map { String(format: ", taste log-odds %.2f", $0) } ?? "") + ")", score: breakdown.score)
    }
}
