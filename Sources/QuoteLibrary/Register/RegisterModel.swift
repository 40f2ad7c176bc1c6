/// The register model: two logistic regressions over a draft's sentence embedding, fitted per
/// embedding model by `scripts/register-model.py` on eval/drafts/tuning and the tuning half of
/// eval/lines (Sources/QuoteLibrary/README.md, "Register"). One tells a line from chat talk about
/// the exchange, the other from a saying credited to someone: the forms of either that the
/// deterministic gate's rules (`ExchangeTalk`, the attribution frames) do not know. It reads the
/// candidate's vector the novelty gate already computed, so it costs two dot products.
public struct RegisterModel: Sendable, Equatable {
    /// The embedding model whose vectors it was fitted on; vectors of another model mean nothing to it.
    public let model: String
    /// Talk about the exchange ("I hope this captures the warmth you were looking for!").
    public let talk: LinearHead
    /// A saying credited to someone ("My neighbour Gerald swears that …").
    public let attribution: LinearHead

    /// Every fitted model, by embedding model id.
    public static let measured: [String: RegisterModel] = Dictionary(uniqueKeysWithValues: RegisterModels.all.map { ($0.model, $0) })
}

/// One logistic regression over a unit sentence vector, with the cutoff above which it flags a
/// line and what it did on the held-out lines it was measured on.
public struct LinearHead: Sendable, Equatable {
    public let bias: Double
    /// The highest log-odds of any tuning line of another kind: above it a line is flagged.
    public let cutoff: Double
    public let heldOutCaught: Int
    public let heldOutLines: Int
    public let heldOutGoodFlagged: Int
    public let heldOutGood: Int
    public let weights: [Float]

    /// The log-odds of the head's kind for the line of `vector` (any length; it is made unit).
    public func logOdds(_ vector: [Float]) -> Double {
        Self.logOdds(weights: weights, bias: bias, vector: vector)
    }

    /// bias + weights · unit(vector): the one affine score of the learned signals (taste, register).
    static func logOdds(weights: [Float], bias: Double, vector: [Float]) -> Double {
        zip(weights, EmbeddingMatrix.unit(vector)).reduce(bias) { $0 + Double($1.0) * Double($1.1) }
    }
}

/// The register check of the pipeline and of `quote check`, right after novelty: a draft the
/// register model reads as talk fails `promptFragment`, one it reads as a credited saying fails
/// `attribution`, the gates those rules stand for. Nothing is added when it passes or cannot run
/// (no embedder, or no model fitted on the embedder's vectors): the rules stand alone then.
public struct RegisterStep: Sendable {
    public let models: [String: RegisterModel]

    public init(models: [String: RegisterModel] = RegisterModel.measured) { self.models = models }

    /// `vector` is the candidate's embedding from `model` (nil without an embedder).
    public func evaluate(vector: [Float]?, model: String?) -> GateResult? {
        guard let vector, let model, let register = models[model],
              register.talk.weights.count == vector.count, register.attribution.weights.count == vector.count else { return nil }
        for (head, gate, reads) in [(register.talk, GateName.promptFragment, "talk about the exchange, not a line"),
                                    (register.attribution, GateName.attribution, "a saying credited to someone")] {
            let odds = head.logOdds(vector)
            if odds > head.cutoff {
                return .fail(gate, "reads as \(reads) to the register model: log-odds "
                             + String(format: "%.2f (cutoff %.2f, ", odds, head.cutoff) + "\(model))", score: odds)
            }
        }
        return nil
    }
}
