/// The register model: two heads over what the encoder made of a draft, fitted per
/// embedding model by `scripts/register-model.py` on eval/drafts/tuning and the tuning half of
/// eval/lines (Sources/QuoteLibrary/README.md, "Register"). One tells a line from chat talk about
/// the exchange, the other from a saying credited to someone: the forms of either that the
/// deterministic gate's rules (`ExchangeTalk`, the attribution frames) do not know. It reads the
/// candidate's vector and per-token states the novelty gate already computed, so it costs two dot
/// products and one pass over the tokens.
public struct RegisterModel: Sendable, Equatable {
    /// The embedding model whose vectors it was fitted on; vectors of another model mean nothing to it.
    public let model: String
    /// The mean token state of the tuning lines, taken from every token state before pooling (the
    /// states share a large common direction that would drown what a line's own words add). nil for a
    /// model fitted on sentence vectors alone, for an embedder without per-token states.
    public let tokenCentre: [Float]?
    /// Talk about the exchange ("I hope this captures the warmth you were looking for!").
    public let talk: LinearHead
    /// A saying credited to someone ("My neighbour Gerald swears that …").
    public let attribution: LinearHead

    public init(model: String, tokenCentre: [Float]? = nil, talk: LinearHead, attribution: LinearHead) {
        (self.model, self.tokenCentre, self.talk, self.attribution) = (model, tokenCentre, talk, attribution)
    }

    /// Every fitted model, by embedding model id.
    public static let measured: [String: RegisterModel] = Dictionary(uniqueKeysWithValues: RegisterModels.all.map { ($0.model, $0) })

    /// What both heads read: the unit sentence vector, then, for a model with a token centre, the
    /// mean and the componentwise maximum of the draft's token states, each state centred and made
    /// unit first. The maximum keeps what one or two tokens say ("swears", "according"), which the
    /// mean of a whole line dilutes. nil when the model needs token states and there are none (an
    /// empty text has no tokens) or the widths do not match the fit.
    public func features(vector: [Float], tokens: TokenStates?) -> [Float]? {
        let sentence = EmbeddingMatrix.unit(vector)
        guard let centre = tokenCentre else { return talk.weights.count == sentence.count ? sentence : nil }
        guard let tokens, !tokens.states.isEmpty, tokens.states.allSatisfy({ $0.count == centre.count }),
              talk.weights.count == sentence.count + 2 * centre.count else { return nil }
        var mean = [Float](repeating: 0, count: centre.count)
        var maximum = [Float](repeating: -.infinity, count: centre.count)
        for state in tokens.states {
            let unit = EmbeddingMatrix.unit(zip(state, centre).map { $0 - $1 })
            for index in unit.indices {
                mean[index] += unit[index] / Float(tokens.states.count)
                maximum[index] = max(maximum[index], unit[index])
            }
        }
        return sentence + mean + maximum
    }
}

/// One affine score over a line's features (a logistic regression's log-odds; for the register,
/// the sum of two, one per part of its features, each scaled by its out-of-fold spread), with the
/// cutoff above which it flags a line and what it did on the held-out lines it was measured on.
public struct LinearHead: Sendable, Equatable {
    public let bias: Double
    /// A score above this flags a line.
    public let cutoff: Double
    public let heldOutCaught: Int
    public let heldOutLines: Int
    public let heldOutGoodFlagged: Int
    public let heldOutGood: Int
    public let weights: [Float]

    /// The head's score for a line of these features (`RegisterModel.features`).
    public func score(_ features: [Float]) -> Double {
        Self.affine(weights: weights, bias: bias, features: features)
    }

    /// bias + weights · unit(vector): the one affine score of the sentence-vector signals (taste).
    static func logOdds(weights: [Float], bias: Double, vector: [Float]) -> Double {
        affine(weights: weights, bias: bias, features: EmbeddingMatrix.unit(vector))
    }

    private static func affine(weights: [Float], bias: Double, features: [Float]) -> Double {
        zip(weights, features).reduce(bias) { $0 + Double($1.0) * Double($1.1) }
    }
}

/// The register check of the pipeline and of `quote check`, right after novelty: a draft the
/// register model reads as talk fails `promptFragment`, one it reads as a credited saying fails
/// `attribution`, the gates those rules stand for. When it cannot run (no embedder, no model
/// fitted on the embedder's vectors, or no token states for a model that reads them) the rules
/// stand alone, and the run records why.
public struct RegisterStep: Sendable {
    public let models: [String: RegisterModel]

    public init(models: [String: RegisterModel] = RegisterModel.measured) { self.models = models }

    public struct Verdict: Sendable, Equatable {
        /// The failure, when a head flags the draft; nil when it passes or the step was skipped.
        public let failure: GateResult?
        /// What the run records: both heads' scores, or why there are none.
        public let record: String
    }

    /// `vector` and `tokens` are the candidate's embedding and per-token states from `model` (nil
    /// without an embedder, or for `tokens`, without per-token states).
    public func evaluate(vector: [Float]?, tokens: TokenStates?, model: String?) -> Verdict {
        guard let vector, let model else {
            return Verdict(failure: nil, record: "skipped: no sentence embedding of the draft (no embedder)")
        }
        guard let register = models[model] else {
            return Verdict(failure: nil, record: "skipped: no register model fitted on \(model)'s vectors")
        }
        guard let features = register.features(vector: vector, tokens: tokens),
              register.attribution.weights.count == features.count else {
            let missing = register.tokenCentre != nil && (tokens?.states.isEmpty ?? true)
            return Verdict(failure: nil, record: missing ? "skipped: \(model) gave no token states for the draft"
                                                         : "skipped: the draft's vectors are not as wide as the register model fitted on \(model)")
        }
        let scores = (talk: register.talk.score(features), attribution: register.attribution.score(features))
        let record = String(format: "talk %.2f (cutoff %.2f), attribution %.2f (cutoff %.2f, ", scores.talk, register.talk.cutoff,
                            scores.attribution, register.attribution.cutoff) + "\(model))"
        for (score, cutoff, gate, reads) in [(scores.talk, register.talk.cutoff, GateName.promptFragment, "talk about the exchange, not a line"),
                                             (scores.attribution, register.attribution.cutoff, GateName.attribution, "a saying credited to someone")]
            where score > cutoff {
            return Verdict(failure: .fail(gate, "reads as \(reads) to the register model: score "
                                          + String(format: "%.2f (cutoff %.2f, ", score, cutoff) + "\(model))", score: score),
                           record: record)
        }
        return Verdict(failure: nil, record: record)
    }
}
