/// A novelty threshold measured for one embedding model on the labelled pairs in
/// `eval/novelty/` (near-duplicates, paraphrases, distinct lines on the same topic, in the six
/// languages): chosen on the tuning half, reported on the held-out half. A cosine means
/// different things in different models, so a model without an entry is uncalibrated.
public struct NoveltyCalibration: Sendable, Equatable {
    public let model: String
    /// A candidate at or above this cosine to a stored quote is a near-duplicate.
    public let threshold: Float
    /// Below the threshold, a candidate this decision calls a paraphrase of one of its nearest
    /// stored quotes is rejected too (nil: the model has only a threshold).
    public let paraphrase: ParaphraseDecision?
    /// Used instead of `paraphrase` when the embedder gives per-token states (nil: the model has
    /// no such decision); it carries its own held-out figures.
    public let tokenAligned: AlignedParaphraseDecision?
    /// Held-out figures of the threshold and `paraphrase` together: the share caught of each kind,
    /// and of distinct lines on the same topic wrongly caught.
    public let heldOutNearDuplicatesCaught: Double
    public let heldOutParaphrasesCaught: Double
    public let heldOutFalseAlarms: Double
    public let heldOutPairs: Int

    public init(model: String, threshold: Float, paraphrase: ParaphraseDecision? = nil,
                tokenAligned: AlignedParaphraseDecision? = nil, heldOutNearDuplicatesCaught: Double,
                heldOutParaphrasesCaught: Double, heldOutFalseAlarms: Double, heldOutPairs: Int) {
        (self.model, self.threshold, self.paraphrase, self.tokenAligned) = (model, threshold, paraphrase, tokenAligned)
        (self.heldOutNearDuplicatesCaught, self.heldOutParaphrasesCaught) = (heldOutNearDuplicatesCaught, heldOutParaphrasesCaught)
        (self.heldOutFalseAlarms, self.heldOutPairs) = (heldOutFalseAlarms, heldOutPairs)
    }

    /// Used, and said in every verdict, for a model without a calibration: a fixed 0.90 catches
    /// light edits in most models but its paraphrase and false-alarm rates are unknown.
    public static let uncalibratedThreshold: Float = 0.90

    /// Every calibration, by model id (`NoveltyCalibrations.all`; each model's written by
    /// `scripts/novelty-token-alignment.py --write`).
    public static let measured: [String: NoveltyCalibration] = Dictionary(
        uniqueKeysWithValues: NoveltyCalibrations.all.map { ($0.model, $0) })
}
