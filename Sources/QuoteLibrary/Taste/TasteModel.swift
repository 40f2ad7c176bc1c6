import Foundation

/// The seed's learned taste signal: a logistic regression over a line's sentence embedding,
/// good against generic or clichéd, fitted per embedding model by `scripts/taste-model.py` on
/// the tuning half of `eval/lines` (six languages) and written into `Models/TasteModel+<model id>.swift` with its
/// held-out figures. It reads the candidate's vector the novelty gate already computed, so it
/// costs one dot product.
public struct TasteModel: Sendable, Equatable {
    /// The embedding model whose vectors it was fitted on; vectors of another model mean nothing to it.
    public let model: String
    public let bias: Double
    /// A line whose log-odds of being good fall below this is rejected (chosen to keep 97.5% of
    /// the tuning good lines).
    public let cutoff: Double
    public let heldOutAUC: Double
    public let heldOutAccuracy: Double
    public let heldOutLines: Int
    public let weights: [Float]

    /// The languages it was fitted on; elsewhere it is skipped, and the run says so.
    public static let languages = LanguageProfiles.languages

    public init(model: String, bias: Double, cutoff: Double, heldOutAUC: Double, heldOutAccuracy: Double, heldOutLines: Int,
                weights: [Float]) {
        (self.model, self.bias, self.cutoff, self.weights) = (model, bias, cutoff, weights)
        (self.heldOutAUC, self.heldOutAccuracy, self.heldOutLines) = (heldOutAUC, heldOutAccuracy, heldOutLines)
    }

    /// Every fitted model, by embedding model id.
    public static let measured: [String: TasteModel] = Dictionary(uniqueKeysWithValues: TasteModels.all.map { ($0.model, $0) })

    /// The log-odds that the line of this (unit-length) vector is a good one.
    public func logOdds(_ vector: [Float]) -> Double {
        LinearHead.logOdds(weights: weights, bias: bias, vector: vector)
    }
}

/// The taste step of the pipeline (scored with distinctiveness; Sources/QuoteLibrary/README.md, "The pipeline"): rejects a line
/// the taste model finds generic, or says why it was skipped.
public struct TasteStep: Sendable {
    public let models: [String: TasteModel]

    public init(models: [String: TasteModel] = TasteModel.measured) { self.models = models }

    public struct Verdict: Sendable, Equatable {
        /// nil when skipped.
        public let result: GateResult?
        /// What the run records: the score, or why there is none.
        public let record: String
    }

    /// `vector` is the candidate's embedding from `model` (nil without an embedder).
    public func evaluate(locale: String, vector: [Float]?, model: String?) -> Verdict {
        let language = SupportedLocale.language(of: locale)
        guard TasteModel.languages.contains(language) else {
            return Verdict(result: nil, record: "skipped: \(language) is not one of the languages the taste model was fitted on")
        }
        guard let vector, let model else {
            return Verdict(result: nil, record: "skipped: no sentence embedding of the draft (no embedder)")
        }
        guard let taste = models[model], taste.weights.count == vector.count else {
            return Verdict(result: nil, record: "skipped: no taste model fitted on \(model)'s vectors")
        }
        let odds = taste.logOdds(vector)
        let record = String(format: "log-odds %.2f (cutoff %.2f, ", odds, taste.cutoff) + "\(model))"
        return Verdict(result: odds >= taste.cutoff ? .pass(.taste, score: odds)
                           : .fail(.taste, "reads as generic to the taste model: \(record)", score: odds),
                       record: record)
    }
}
