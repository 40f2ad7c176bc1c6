/// Tells a paraphrase of a stored quote (the same idea in other words) from a different line on
/// the same topic, where the cosine alone cannot: in multilingual-e5-small both sit at 0.82–0.98.
/// A logistic regression over three features of the pair:
/// - `cosine`: the sentence embeddings' cosine;
/// - `sharedWords`: Jaccard overlap of the two lines' content-word stems (folded words of at
///   least 4 letters, cut to their first 5, so "shovelled" and "shovel" meet);
/// - `sharedTrigrams`: Jaccard overlap of their character 3-grams (folded words, spaces kept).
///
/// A line on the same topic often reuses the stored line's frame and words while saying
/// something else; a paraphrase keeps the meaning and changes the words. So at a given cosine,
/// less shared wording is the sign of a paraphrase, and the fitted weights of the overlaps are
/// negative. The weights and the cutoff are fitted per embedding model by
/// `scripts/novelty-calibration.py` on the tuning half of `eval/novelty/` and written into
/// `NoveltyCalibrations.swift` with the held-out figures.
public struct ParaphraseDecision: Sendable, Equatable {
    /// Weights of (cosine, sharedWords, sharedTrigrams), then the intercept.
    public let weights: [Double]
    public let bias: Double
    /// A pair whose log-odds reach this is a paraphrase.
    public let cutoff: Double
    /// How many of the library's nearest quotes (by cosine) are checked.
    public static let neighbours = 8

    public init(weights: [Double], bias: Double, cutoff: Double) {
        precondition(weights.count == 3, "a paraphrase decision weighs three features")
        (self.weights, self.bias, self.cutoff) = (weights, bias, cutoff)
    }

    /// The pair's features, in `weights` order.
    public static func features(cosine: Float, _ first: String, _ second: String) -> [Double] {
        let (a, b) = (words(first), words(second))
        return [Double(cosine), jaccard(stems(a), stems(b)), jaccard(trigrams(a), trigrams(b))]
    }

    /// The log-odds that the pair is a paraphrase.
    public func logOdds(cosine: Float, _ first: String, _ second: String) -> Double {
        zip(weights, Self.features(cosine: cosine, first, second)).reduce(bias) { $0 + $1.0 * $1.1 }
    }

    public func isParaphrase(cosine: Float, _ first: String, _ second: String) -> Bool {
        mayCall(cosine: cosine) && logOdds(cosine: cosine, first, second) >= cutoff
    }

    /// Whether a pair at this cosine can reach the cutoff at all, whatever its wording (the
    /// overlaps lie in 0...1): the gate reads a stored quote's text only when it can.
    public func mayCall(cosine: Float) -> Bool {
        bias + weights[0] * Double(cosine) + weights[1...].reduce(0) { $0 + max(0, $1) } >= cutoff
    }

    /// Folded words split at apostrophes and hyphens, as the script splits them.
    static func words(_ text: String) -> [String] {
        QuoteText.phraseKey(text).lowercased().split(whereSeparator: { $0 == " " || $0 == "-" }).map(String.init)
    }

    static func stems(_ words: [String]) -> Set<String> {
        Set(words.filter { $0.count >= 4 }.map { String($0.prefix(5)) })
    }

    static func trigrams(_ words: [String]) -> Set<String> {
        let characters = Array(" " + words.joined(separator: " ") + " ")
        guard characters.count >= 3 else { return [] }
        return Set((0...(characters.count - 3)).map { String(characters[$0..<$0 + 3]) })
    }

    static func jaccard(_ a: Set<String>, _ b: Set<String>) -> Double {
        let union = a.union(b).count
        return union == 0 ? 0 : Double(a.intersection(b).count) / Double(union)
    }
}
