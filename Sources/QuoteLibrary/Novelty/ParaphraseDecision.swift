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
/// `scripts/novelty-token-alignment.py --write` on the tuning half of `eval/novelty/` and written into
/// `Calibrations/NoveltyCalibration+<model id>.swift` with the held-out figures.
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

    /// A line's wording as the overlap features read it, made once per line: the gate compares
    /// one candidate with several stored quotes (made per pair, twice, it was a tenth of a
    /// novelty check, `make bench-novelty`).
    public struct Wording: Sendable {
        let stems: Set<String>
        /// Each 3-gram's code points, 21 bits apiece (code points, as the script's Python strings).
        let trigrams: Set<UInt64>

        public init(_ text: String) {
            let words = ParaphraseDecision.words(text)
            stems = ParaphraseDecision.stems(words)
            trigrams = ParaphraseDecision.trigrams(words)
        }
    }

    /// The pair's features, in `weights` order.
    public static func features(cosine: Float, _ first: Wording, _ second: Wording) -> [Double] {
        [Double(cosine), jaccard(first.stems, second.stems), jaccard(first.trigrams, second.trigrams)]
    }

    public static func features(cosine: Float, _ first: String, _ second: String) -> [Double] {
        features(cosine: cosine, Wording(first), Wording(second))
    }

    /// The log-odds that the pair is a paraphrase.
    public func logOdds(cosine: Float, _ first: Wording, _ second: Wording) -> Double {
        zip(weights, Self.features(cosine: cosine, first, second)).reduce(bias) { $0 + $1.0 * $1.1 }
    }

    public func logOdds(cosine: Float, _ first: String, _ second: String) -> Double {
        logOdds(cosine: cosine, Wording(first), Wording(second))
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

    static func trigrams(_ words: [String]) -> Set<UInt64> {
        let points = Array((" " + words.joined(separator: " ") + " ").unicodeScalars.map { UInt64($0.value) })
        guard points.count >= 3 else { return [] }
        return Set((0...(points.count - 3)).map { points[$0] << 42 | points[$0 + 1] << 21 | points[$0 + 2] })
    }

    static func jaccard<T>(_ a: Set<T>, _ b: Set<T>) -> Double {
        let union = a.union(b).count
        return union == 0 ? 0 : Double(a.intersection(b).count) / Double(union)
    }
}

/// `ParaphraseDecision` with a fourth feature, the token alignment of what the two lines do not
/// share (`TokenAlignment.unsharedAlignment`): used when the embedder gives per-token states
/// (`Embedder.offersTokenStates`). Fitted per embedding model, with its cutoff and held-out
/// figures, by `scripts/novelty-token-alignment.py --write` on the tuning half of `eval/novelty/`.
///
/// The alignment needs one encoder pass per compared quote, so the gate reads it only for a pair
/// whose log-odds it can move across the cutoff: `logOdds(alignment:)` is linear in the alignment,
/// which lies in −1...1, so the cosine and the wording bound the answer before any token state is
/// computed (`range`).
public struct AlignedParaphraseDecision: Sendable, Equatable {
    /// Weights of (cosine, unsharedAlignment, sharedWords, sharedTrigrams), then the intercept.
    public let weights: [Double]
    public let bias: Double
    /// A pair whose log-odds reach this is a paraphrase.
    public let cutoff: Double
    public let alignment: TokenAlignment
    /// Held-out figures of the threshold and this decision together (share caught of each kind).
    public let heldOutParaphrasesCaught: Double
    public let heldOutFalseAlarms: Double
    public let heldOutUnrelatedCaught: Double

    public init(weights: [Double], bias: Double, cutoff: Double, alignment: TokenAlignment, heldOutParaphrasesCaught: Double,
                heldOutFalseAlarms: Double, heldOutUnrelatedCaught: Double) {
        precondition(weights.count == 4, "an aligned paraphrase decision weighs four features")
        (self.weights, self.bias, self.cutoff, self.alignment) = (weights, bias, cutoff, alignment)
        (self.heldOutParaphrasesCaught, self.heldOutFalseAlarms) = (heldOutParaphrasesCaught, heldOutFalseAlarms)
        self.heldOutUnrelatedCaught = heldOutUnrelatedCaught
    }

    /// The log-odds that the pair is a paraphrase, given its token alignment.
    public func logOdds(cosine: Float, alignment: Double, _ first: String, _ second: String) -> Double {
        logOdds(ParaphraseDecision.features(cosine: cosine, first, second), alignment: alignment)
    }

    /// The log-odds the pair can have, whatever its token alignment (in −1...1).
    public func range(cosine: Float, _ first: String, _ second: String) -> ClosedRange<Double> {
        range(ParaphraseDecision.features(cosine: cosine, first, second))
    }

    /// `range` of the pair's `ParaphraseDecision.features`, computed once for this and `logOdds`.
    public func range(_ wording: [Double]) -> ClosedRange<Double> {
        let (low, high) = (logOdds(wording, alignment: -1), logOdds(wording, alignment: 1))
        return min(low, high)...max(low, high)
    }

    /// Whether a pair at this cosine can reach the cutoff at all, whatever its wording (overlaps in
    /// 0...1) and alignment (−1...1): the gate reads a stored quote's text only when it can.
    public func mayCall(cosine: Float) -> Bool {
        bias + weights[0] * Double(cosine) + abs(weights[1]) + max(0, weights[2]) + max(0, weights[3]) >= cutoff
    }

    /// `wording` is `ParaphraseDecision.features` (cosine, sharedWords, sharedTrigrams).
    public func logOdds(_ wording: [Double], alignment: Double) -> Double {
        bias + weights[0] * wording[0] + weights[1] * alignment + weights[2] * wording[1] + weights[3] * wording[2]
    }
}
