import Foundation

/// The register model: two heads over what the encoder made of a draft, fitted per
/// embedding model by `scripts/register-model.py` on eval/drafts/tuning and the tuning half of
/// eval/lines (Sources/QuoteLibrary/README.md, "Register"). One tells a line from chat talk about
/// the exchange, the other from a saying credited to someone: the forms of either that the
/// deterministic gate's rules (`ExchangeTalk`, the attribution frames) do not know. It reads the
/// candidate's vector and per-token states the novelty gate already computed, so it costs one pass
/// over the tokens, a dot product for the talk head and a layer of 64 for the attribution head.
public struct RegisterModel: Sendable, Equatable {
    /// The embedding model whose vectors it was fitted on; vectors of another model mean nothing to it.
    public let model: String
    /// The mean token state of the tuning lines, taken from every token state before pooling (the
    /// states share a large common direction that would drown what a line's own words add). nil for a
    /// model fitted on sentence vectors alone, for an embedder without per-token states.
    public let tokenCentre: [Float]?
    /// Talk about the exchange ("I hope this captures the warmth you were looking for!").
    public let talk: LinearHead
    /// A saying credited to someone ("My neighbour Gerald swears that …"), through a hidden layer:
    /// a linear head caught fewer of them (Sources/QuoteLibrary/README.md, "Register").
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
        guard let centre = tokenCentre else { return talk.inputs == sentence.count ? sentence : nil }
        guard let tokens, !tokens.states.isEmpty, tokens.states.allSatisfy({ $0.count == centre.count }),
              talk.inputs == sentence.count + 2 * centre.count else { return nil }
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

/// One affine score over a line's features (a logistic regression's log-odds; for the register's
/// talk head, the sum of two, one per part of its features, each scaled by its out-of-fold spread),
/// or over a hidden layer's outputs for them (a network's log-odds), with the cutoff above which it
/// flags a line and what it did on the held-out lines it was measured on.
public struct LinearHead: Sendable, Equatable {
    /// The layer between the features and the affine score; nil when the score reads the features.
    public let hidden: HiddenLayer?
    public let bias: Double
    /// A score above this flags a line.
    public let cutoff: Double
    public let heldOutCaught: Int
    public let heldOutLines: Int
    public let heldOutGoodFlagged: Int
    public let heldOutGood: Int
    /// One per hidden unit, or per feature without a hidden layer.
    public let weights: [Float]

    public init(hidden: HiddenLayer? = nil, bias: Double, cutoff: Double, heldOutCaught: Int, heldOutLines: Int, heldOutGoodFlagged: Int,
                heldOutGood: Int, weights: [Float]) {
        precondition(hidden.map { $0.bias.count == weights.count } ?? true, "one weight per hidden unit")
        (self.hidden, self.bias, self.cutoff, self.weights) = (hidden, bias, cutoff, weights)
        (self.heldOutCaught, self.heldOutLines, self.heldOutGoodFlagged, self.heldOutGood) = (heldOutCaught, heldOutLines, heldOutGoodFlagged, heldOutGood)
    }

    /// How many features it reads.
    public var inputs: Int { hidden?.inputs ?? weights.count }

    /// The head's score for a line of these features (`RegisterModel.features`; the caller checks
    /// that there are `inputs` of them).
    public func score(_ features: [Float]) -> Double {
        Self.affine(weights: weights, bias: bias, features: hidden.map { $0.outputs(features) } ?? features)
    }

    /// bias + weights · unit(vector): the one affine score of the sentence-vector signals (taste).
    static func logOdds(weights: [Float], bias: Double, vector: [Float]) -> Double {
        affine(weights: weights, bias: bias, features: EmbeddingMatrix.unit(vector))
    }

    private static func affine(weights: [Float], bias: Double, features: [Float]) -> Double {
        zip(weights, features).reduce(bias) { $0 + Double($1.0) * Double($1.1) }
    }
}

/// A layer of rectified units: each output is max(0, its bias + its row of weights · the inputs).
/// scripts/register-model.py writes the weights as little-endian 32-bit floats in Base64, one row
/// after another: as a Swift array literal, their 147k numbers took the compiler half a minute.
public struct HiddenLayer: Sendable, Equatable {
    public let inputs: Int
    /// One per unit.
    public let bias: [Float]
    /// `bias.count` rows of `inputs` weights.
    public let weights: [Float]

    public init(inputs: Int, bias: [Float], weights: [Float]) {
        precondition(inputs > 0 && weights.count == inputs * bias.count, "a hidden layer needs \(inputs) × \(bias.count) weights, not \(weights.count)")
        (self.inputs, self.bias, self.weights) = (inputs, bias, weights)
    }

    /// The layer the script wrote. The text is generated and checked in, so a malformed one is a
    /// defect of the build, not bad input: it stops the program and says what was wrong.
    init(inputs: Int, bias: [Float], weightsBase64: String) {
        guard let data = Data(base64Encoded: weightsBase64, options: .ignoreUnknownCharacters), data.count % 4 == 0 else {
            preconditionFailure("the hidden layer's weights are not Base64 of 32-bit floats")
        }
        let weights = data.withUnsafeBytes { raw in
            (0..<data.count / 4).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
        self.init(inputs: inputs, bias: bias, weights: weights)
    }

    /// The units' outputs for `inputs` values (the caller checks the count).
    public func outputs(_ values: [Float]) -> [Float] {
        precondition(values.count == inputs, "\(values.count) values into a layer of \(inputs) inputs")
        return weights.withUnsafeBufferPointer { rows in
            values.withUnsafeBufferPointer { values in
                bias.indices.map { unit in
                    max(0, bias[unit] + FloatDot.dot(rows.baseAddress! + unit * inputs, values.baseAddress!, count: inputs))
                }
            }
        }
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
        /// The failure of each head that flags the draft, talk's first; none when it passes or the step was skipped.
        public let flags: [GateResult]
        /// What the run records: both heads' scores, or why there are none.
        public let record: String

        /// The draft's rejection: talk's, when both heads flag it.
        public var failure: GateResult? { flags.first }
    }

    /// `vector` and `tokens` are the candidate's embedding and per-token states from `model` (nil
    /// without an embedder, or for `tokens`, without per-token states).
    public func evaluate(vector: [Float]?, tokens: TokenStates?, model: String?) -> Verdict {
        guard let vector, let model else {
            return Verdict(flags: [], record: "skipped: no sentence embedding of the draft (no embedder)")
        }
        guard let register = models[model] else { return Verdict(flags: [], record: Self.unfitted(model)) }
        guard let features = register.features(vector: vector, tokens: tokens),
              register.attribution.inputs == features.count else {
            let missing = register.tokenCentre != nil && (tokens?.states.isEmpty ?? true)
            return Verdict(flags: [], record: missing ? "skipped: \(model) gave no token states for the draft"
                                                      : "skipped: the draft's vectors are not as wide as the register model fitted on \(model)")
        }
        let scores = (talk: register.talk.score(features), attribution: register.attribution.score(features))
        let record = String(format: "talk %.2f (cutoff %.2f), attribution %.2f (cutoff %.2f, ", scores.talk, register.talk.cutoff,
                            scores.attribution, register.attribution.cutoff) + "\(model))"
        let heads = [(scores.talk, register.talk.cutoff, GateName.promptFragment, "talk about the exchange, not a line"),
                     (scores.attribution, register.attribution.cutoff, GateName.attribution, "a saying credited to someone")]
        let flags = heads.filter { $0.0 > $0.1 }.map { score, cutoff, gate, reads in
            GateResult.fail(gate, "reads as \(reads) to the register model: score " + String(format: "%.2f (cutoff %.2f, ", score, cutoff) + "\(model))",
                            score: score)
        }
        return Verdict(flags: flags, record: record)
    }

    private static func unfitted(_ model: String) -> String { "skipped: no register model fitted on \(model)'s vectors" }
}

/// The cause of a rejection by the rules. A draft the deterministic gate rejects for its shape or its
/// words (its sentence count, length or last character, its first word, a word no table knows, a
/// dangling last word, markup, a cliché) may be chat talk or a credited saying that the rules do not
/// know: a reply too long for a line ("Sure! Here is a line about … Let me know if …"), a line with a
/// comment after it ("… Spero vada bene così."). Rejected either way, it is rejected as what it is
/// when the register reads it so (Sources/QuoteLibrary/README.md, "Register"), so that the run and
/// escalation see the cause, not the symptom. A draft the rules read as one of the register's two
/// kinds is rejected as the other when only the other head flags it: the rules' frames for the two
/// overlap ("\"The tailor measures twice and smiles once.\" — a bit neat, perhaps, but it scans
/// well." is talk about the line, not a credit). No draft the gate passes is touched.
extension RegisterStep {
    /// Not read: an empty draft, and a draft in another language than asked for (the heads were
    /// fitted on the six languages' lines, and its language is the cause).
    public static let unreadGates: Set<GateName> = [.empty, .language]
    /// The rules' own readings of the two kinds the register reads.
    static let readByTheRules: Set<GateName> = [.promptFragment, .attribution]
    /// Longer drafts are no line and no chat turn to read (a 10,000-word text): their `length` stands.
    public static let causeReadWords = 60

    /// The shortest ending of `sentence` that starts after a clause mark (a comma, semicolon or colon, or a
    /// spaced dash) and is as long as the shortest line the gate takes, its first letter capitalised; nil
    /// when no ending after a mark is that long. A credit's frame is a clause's, and a long sentence
    /// drowns it ("We spent the evening under the lanterns …, and on the way out the old fishmonger told us
    /// the tide always brings back …"; set 42 of eval/drafts).
    static func lastClauses(of sentence: String) -> String? {
        let marks = clauseMark.ranges(in: sentence).map(\.upperBound)
        guard let start = marks.last(where: { QuoteText.words(String(sentence[$0...])).count >= DeterministicGate.wordLimits.lowerBound })
        else { return nil }
        let clauses = sentence[start...]
        return clauses.prefix(1).uppercased() + clauses.dropFirst()
    }

    static let clauseMark = GatePattern(#"[,;:]\s+|\s[-–—]\s+"#)

    /// Whether a draft the gate rejected with `failure` is read for its cause.
    public static func readsCause(of failure: GateResult, in text: String) -> Bool {
        !unreadGates.contains(failure.gate) && QuoteText.words(text).count <= causeReadWords
    }

    /// The rejection and what the run records: the register's failure, its reason naming the rules'
    /// too, when a head flags the draft in `verdict` (for a failure the register stands for, when only the
    /// other head does); `failure` itself otherwise.
    func cause(of failure: GateResult, verdict: Verdict) -> (failure: GateResult, record: String) {
        guard let flagged = verdict.failure, !verdict.flags.contains(where: { $0.gate == failure.gate }) else { return (failure, verdict.record) }
        let rules = Self.readByTheRules.contains(failure.gate) ? "the rules read it as \(failure.gate.rawValue): \(failure.reason ?? "")"
                                                                 : Self.alsoFails(failure)
        return (.fail(flagged.gate, "\(flagged.reason ?? ""); \(rules)", score: flagged.score), verdict.record)
    }

    /// How a cause's reason names the rules' failure it was read for.
    static func alsoFails(_ failure: GateResult) -> String {
        "the draft also fails \(failure.gate.rawValue): \(failure.reason ?? "")"
    }

    /// `cause(of:…)` on the draft's vector and token states from `embedder`. A draft of more than one
    /// sentence that neither head flags whole is read once more by its last sentence alone, where
    /// a comment after the line ("… Spero vada bene così.", "… Dentro do limite pedido.") is not
    /// drowned by the line before it. A draft rejected for its length, one sentence (the gate counts sentences
    /// first), is then read by its last clauses (`lastClauses`) for a credit alone: the rules' attribution frames
    /// in `language` and the attribution head. `whole` is the draft's vector and token states from `embedder`
    /// when the caller has them (`quote check`'s novelty), so that it is not embedded twice. When the embedder
    /// fails, `failure` stands and the record says why.
    public func cause(of failure: GateResult, text: String, language: String?, embedder: Embedder,
                      whole given: (vector: [Float], tokens: TokenStates?)? = nil) async throws -> (failure: GateResult, record: String) {
        // Nothing could come of the embedding.
        guard let register = models[embedder.model] else { return (failure, Self.unfitted(embedder.model)) }
        let read = { (text: String, what: String, known: (vector: [Float], tokens: TokenStates?)?) async throws -> Verdict in
            let vector = if let known { known.vector } else { try await embedder.embed(text) }
            var tokens = known?.tokens
            if tokens == nil, embedder.offersTokenStates, register.tokenCentre != nil {
                tokens = try await embedder.checkedTokenStates(text, dimensions: vector.count, of: what)
            }
            return evaluate(vector: vector, tokens: tokens, model: embedder.model)
        }
        let also = Self.alsoFails(failure)
        do {
            let whole = try await read(text, "the draft", given)
            let cause = cause(of: failure, verdict: whole)
            guard cause.failure == failure, !Self.readByTheRules.contains(failure.gate) else { return cause }
            var record = cause.record
            let sentences = QuoteText.sentences(text)
            if sentences.count > 1, let last = sentences.last {
                let verdict = try await read(last, "the draft's last sentence", nil)
                record += "; its last sentence: \(verdict.record)"
                if let flagged = verdict.failure {
                    return (.fail(flagged.gate, "its last sentence, \"\(last)\", \(flagged.reason ?? ""); \(also)", score: flagged.score), record)
                }
            }
            guard failure.gate == .length, let clauses = Self.lastClauses(of: text) else { return (failure, record) }
            let rules = DeterministicGate.attribution(of: clauses, language: language)
            if !rules.passed {
                return (.fail(.attribution, "its last clauses, \"\(clauses)\", read alone: \(rules.reason ?? ""); \(also)"),
                        record + "; its last clauses: the rules read a credit")
            }
            let verdict = try await read(clauses, "the draft's last clauses", nil)
            record += "; its last clauses: \(verdict.record)"
            guard let credit = verdict.flags.first(where: { $0.gate == .attribution }) else { return (failure, record) }
            return (.fail(.attribution, "its last clauses, \"\(clauses)\", \(credit.reason ?? ""); \(also)", score: credit.score), record)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return (failure, "skipped: the draft could not be embedded to read the cause of its \(failure.gate.rawValue) failure: \(error)")
        }
    }
}
