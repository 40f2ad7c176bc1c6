import Foundation

/// Sources/QuoteLibrary/README.md, "The pipeline", step 4. In order: a text too long to embed is
/// refused; a copy of a stored quote (same text once case, accents, punctuation and spacing are
/// folded) is rejected before any embedding; then the candidate is embedded, every stored quote
/// lacking a vector of the same model is embedded first, and the candidate is compared with all of
/// them. A cosine at or above the model's calibrated threshold is a near-duplicate; below it, a
/// candidate that is one of its nearest stored quotes with one word replaced, added or removed,
/// or that the model's paraphrase decision calls a paraphrase of one, is rejected too. The
/// rejection names the stored quote. Given the candidate's locale, the paraphrase decision reads
/// only the nearest quotes in its language: both decisions were fitted on pairs within one
/// language, where a rewording shares few words; two lines in two languages share none, which the
/// decision would read as rewording (a cross-lingual encoder puts such lines on one topic close).
/// The threshold still applies across languages.
///
/// The paraphrase decision: when the model has a token-aligned one and the embedder gives
/// per-token states, `AlignedParaphraseDecision`, read only for a stored quote whose cosine and
/// wording leave the answer open. The stored quotes' states are kept in the library with their
/// vectors (`LibraryEmbedding`), so a check runs the encoder for its candidate's states only:
/// one pass besides its embedding, none when no neighbour is in that band and the candidate is
/// rejected; a candidate that passes always gets them, to be stored with its vector (`proof`).
/// Otherwise `ParaphraseDecision`, on the cosine and the wording alone. Which one was used is in the verdict
/// (`paraphraseDecision`) and in the result's note or reason, never silently.
///
/// Not proven (passes, and says so): no embedder, no library, a library with no quotes, or a model
/// without a calibration (the default 0.90 is used and named). An embedder that fails is not a
/// missing one: the gate rejects, since nothing it cannot compare may be stored.
public struct NoveltyGate: Sendable {
    /// The embedding models read at most 512 tokens; 128 words stay inside that in all six
    /// languages, and a quote is one sentence (the deterministic gate allows 18 words).
    public static let maximumWords = 128

    public let calibrations: [String: NoveltyCalibration]

    public init(calibrations: [String: NoveltyCalibration] = NoveltyCalibration.measured) {
        self.calibrations = calibrations
    }

    public struct Verdict: Sendable {
        public let result: GateResult
        public let proven: Bool
        /// The candidate's vector and what it was compared with, to store with an accepted quote.
        public let proof: NoveltyProof?
        /// Which paraphrase decision judged the nearest quotes; nil when none ran (no calibrated
        /// decision for the model, or the check ended before it).
        public var paraphraseDecision: ParaphraseDecisionUsed? = nil
        /// Calls for per-token states: the candidate's, and a stored quote's whose states the
        /// library lacked (stored by another process since the library was filled). A backend may
        /// answer the candidate's from the pass that embedded it (`tandem.llama` does).
        public var tokenStatePasses = 0
    }

    public enum ParaphraseDecisionUsed: Sendable, Equatable {
        /// `AlignedParaphraseDecision`, with the token alignment.
        case tokenAlignment
        /// `ParaphraseDecision`, on the cosine and wording alone: the model has no token-aligned
        /// decision, or (`embedderLacksTokenStates`) it has one but the embedder gives no states.
        case wordOverlaps(embedderLacksTokenStates: Bool)
    }

    /// Whether the paraphrase step reads per-token states with this embedder (so the library
    /// keeps them beside its vectors).
    public func readsTokenStates(_ embedder: Embedder) -> Bool {
        calibrations[embedder.model]?.tokenAligned != nil && embedder.offersTokenStates
    }

    /// The threshold for `model`, and whether it was calibrated.
    public func threshold(for model: String) -> (value: Float, calibrated: Bool) {
        calibrations[model].map { ($0.threshold, true) } ?? (NoveltyCalibration.uncalibratedThreshold, false)
    }

    /// `locale`: the candidate's (nil: unknown, every neighbour is its language's).
    public func evaluate(_ text: String, locale: String? = nil, embedder: Embedder?, store: QuoteStore?,
                         progress: LibraryEmbedding.Progress? = nil) async throws -> Verdict {
        let wordCount = QuoteText.words(text).count
        guard wordCount <= Self.maximumWords else {
            return Verdict(result: .fail(.novelty, "not compared: \(wordCount) words is more than the \(Self.maximumWords) "
                                         + "the novelty check embeds (a quote is one sentence)"), proven: false, proof: nil)
        }
        if let store, let copy = try store.quote(matching: text) {
            return Verdict(result: .fail(.novelty, "copy of stored quote \(Self.describe(copy)) (the same text once case, "
                                         + "accents and punctuation are folded)", score: 1), proven: true, proof: nil)
        }
        guard let embedder else {
            return Verdict(result: .pass(.novelty, note: "novelty not proven: no embedder available"), proven: false, proof: nil)
        }
        let candidate: [Float]
        do {
            candidate = try await embedder.embed(text)
            try NoveltyError.check(candidate, dimensions: candidate.count, model: embedder.model, of: "the candidate")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return Verdict(result: .fail(.novelty, "novelty not checked: the embedder \(embedder.model) failed: \(error)"),
                           proven: false, proof: nil)
        }
        let (threshold, calibrated) = threshold(for: embedder.model)
        guard let store else {
            return Verdict(result: .pass(.novelty, note: "novelty not proven: no library to compare against"), proven: false,
                           proof: NoveltyProof(model: embedder.model, vector: candidate, threshold: threshold, comparedThrough: 0))
        }
        let comparedThrough = try store.highestQuoteID()
        let library: LibraryEmbedding.Library
        do {
            library = try await LibraryEmbedding.embedMissing(store: store, embedder: embedder, dimensions: candidate.count,
                                                              tokenStates: readsTokenStates(embedder), progress: progress)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as StoreError {
            throw error
        } catch {
            return Verdict(result: .fail(.novelty, "novelty not checked: embedding the library with \(embedder.model) "
                                         + "failed: \(error)"), proven: false, proof: nil)
        }
        var proof = NoveltyProof(model: embedder.model, vector: candidate, threshold: threshold, comparedThrough: comparedThrough)
        let neighbours = library.matrix.nearest(to: candidate, count: ParaphraseDecision.neighbours)
        guard let match = neighbours.first else {
            return Verdict(result: .pass(.novelty, note: "novelty not proven: the library has no quotes"), proven: false, proof: proof)
        }
        let cosine = String(format: "%.3f", match.similarity)
        let rule = calibrated ? "calibrated for \(embedder.model)"
            : "uncalibrated default for \(embedder.model), which has no calibration"
        if match.similarity >= threshold {
            let stored = try store.quote(id: match.id).map(Self.describe) ?? "#\(match.id)"
            return Verdict(result: .fail(.novelty, "near-duplicate of stored quote \(stored) (cosine \(cosine) ≥ "
                                         + "\(threshold), \(rule))", score: Double(match.similarity)),
                           proven: true, proof: proof)
        }
        // The nearest quotes' texts, read once for both wording checks below.
        let nearest = try neighbours.compactMap { neighbour in try store.quote(id: neighbour.id).map { (neighbour, $0) } }
        // A one-word edit of a short quote can fall below the threshold (one word of three moves
        // the vector far), yet it is still a copy: checked on the nearest quotes by wording alone.
        let candidateWords = Self.editWords(text)
        for (neighbour, stored) in nearest where Self.isOneWordEdit(candidateWords, Self.editWords(stored.text)) {
            return Verdict(result: .fail(.novelty, "one-word edit of stored quote \(Self.describe(stored)) (one word replaced, "
                                         + "added or removed; cosine \(String(format: "%.3f", neighbour.similarity)))",
                                         score: Double(neighbour.similarity)),
                           proven: true, proof: proof)
        }
        var paraphrase: ParaphraseCheck
        do {
            let sameLanguage = nearest.filter { locale == nil || Self.language($0.1.locale) == Self.language(locale!) }
            paraphrase = try await checkParaphrase(text, nearest: sameLanguage, embedder: embedder, store: store, library: library,
                                                   rule: rule)
            // A candidate that passes may be stored: its states go with its vector.
            if paraphrase.rejection == nil, paraphrase.candidateStates == nil, readsTokenStates(embedder) {
                paraphrase.candidateStates = try await embedder.checkedTokenStates(text, dimensions: candidate.count,
                                                                                   of: "the candidate")
                paraphrase.passes += 1
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return Verdict(result: .fail(.novelty, "novelty not checked: the per-token states of \(embedder.model) failed: \(error)"),
                           proven: false, proof: nil)
        }
        if let rejection = paraphrase.rejection {
            return Verdict(result: rejection, proven: true, proof: proof, paraphraseDecision: paraphrase.used,
                           tokenStatePasses: paraphrase.passes)
        }
        proof.tokenStates = paraphrase.candidateStates
        var notes: [String] = []
        if let note = paraphrase.note { notes.append(note) }
        if !calibrated { notes.append("novelty not proven: threshold \(threshold) is the \(rule)") }
        if library.memoryOnly > 0 {
            notes.append("\(library.memoryOnly) vectors computed for this check only (the library is read-only)")
        }
        return Verdict(result: .pass(.novelty, score: Double(match.similarity), note: notes.isEmpty ? nil : notes.joined(separator: "; ")),
                       proven: calibrated, proof: proof, paraphraseDecision: paraphrase.used, tokenStatePasses: paraphrase.passes)
    }

    /// What the paraphrase step found: a rejection, or a note saying which decision passed it.
    struct ParaphraseCheck {
        var rejection: GateResult?
        var used: ParaphraseDecisionUsed?
        var passes = 0
        var note: String?
        var candidateStates: TokenStates?
    }

    /// The model's paraphrase decision over the nearest stored quotes (see the type's comment).
    private func checkParaphrase(_ text: String, nearest: [(EmbeddingMatrix.Match, StoredQuote)], embedder: Embedder,
                                 store: QuoteStore, library: LibraryEmbedding.Library, rule: String) async throws -> ParaphraseCheck {
        guard let calibration = calibrations[embedder.model] else { return ParaphraseCheck() }
        if let aligned = calibration.tokenAligned, embedder.offersTokenStates {
            var check = ParaphraseCheck(used: .tokenAlignment)
            let dimensions = library.matrix.dimensions
            let candidate = ParaphraseDecision.Wording(text)
            for (neighbour, stored) in nearest where aligned.mayCall(cosine: neighbour.similarity) {
                let wording = ParaphraseDecision.features(cosine: neighbour.similarity, candidate, ParaphraseDecision.Wording(stored.text))
                let range = aligned.range(wording)
                guard range.upperBound >= aligned.cutoff else { continue }
                let odds: Double, how: String
                if range.lowerBound >= aligned.cutoff {
                    (odds, how) = (range.lowerBound, "whatever its token alignment")
                } else {
                    if check.candidateStates == nil {
                        check.candidateStates = try await embedder.checkedTokenStates(text, dimensions: dimensions,
                                                                                      of: "the candidate")
                        check.passes += 1
                    }
                    let storedStates: TokenStates
                    if let kept = try library.memoryTokenStates[stored.id]
                        ?? store.tokenStates(quoteID: stored.id, model: embedder.model, dimensions: dimensions) {
                        storedStates = kept
                    } else {
                        storedStates = try await embedder.checkedTokenStates(stored.text, dimensions: dimensions,
                                                                             of: "stored quote #\(stored.id)")
                        check.passes += 1
                    }
                    let alignment = aligned.alignment.unsharedAlignment(check.candidateStates!, storedStates)
                    (odds, how) = (aligned.logOdds(wording, alignment: alignment), String(format: "token alignment %.3f", alignment))
                }
                guard odds >= aligned.cutoff else { continue }
                check.rejection = .fail(.novelty, "paraphrase of stored quote \(Self.describe(stored)) (cosine "
                                        + String(format: "%.3f, ", neighbour.similarity) + how
                                        + String(format: ", paraphrase log-odds %.2f ≥ %.2f, ", odds, aligned.cutoff) + "\(rule))",
                                        score: Double(neighbour.similarity))
                return check
            }
            check.note = "paraphrases judged with token alignment (\(check.passes) encoder passes for token states)"
            return check
        }
        guard let decision = calibration.paraphrase else { return ParaphraseCheck() }
        let lacking = calibration.tokenAligned != nil
        var check = ParaphraseCheck(used: .wordOverlaps(embedderLacksTokenStates: lacking))
        let why = lacking ? "word overlaps only: \(embedder.model)'s embedder gives no per-token states" : nil
        let candidate = ParaphraseDecision.Wording(text)
        for (neighbour, stored) in nearest where decision.mayCall(cosine: neighbour.similarity) {
            let odds = decision.logOdds(cosine: neighbour.similarity, candidate, ParaphraseDecision.Wording(stored.text))
            guard odds >= decision.cutoff else { continue }
            check.rejection = .fail(.novelty, "paraphrase of stored quote \(Self.describe(stored)) (cosine "
                                    + String(format: "%.3f, paraphrase log-odds %.2f ≥ %.2f, ", neighbour.similarity, odds,
                                             decision.cutoff) + (why.map { "\($0), " } ?? "") + "\(rule))",
                                    score: Double(neighbour.similarity))
            return check
        }
        check.note = why.map { "paraphrases judged on \($0) (the token-aligned decision needs them)" }
        return check
    }

    /// A locale's language: its primary subtag, lower-cased ("pt-BR" -> "pt").
    static func language(_ locale: String) -> Substring {
        locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { Substring($0.lowercased()) } ?? ""
    }

    /// The text's space-separated words, each folded as the store's unique key folds (case,
    /// accents, punctuation), empty ones dropped: "Que sais-je ?" is ["que", "sais je"].
    static func editWords(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map { QuoteText.normalizedKey(String($0)) }.filter { !$0.isEmpty }
    }

    /// Whether `a` is `b` with one word replaced, inserted or removed, keeping at least one word
    /// of it (two different one-word texts are not edits of each other).
    static func isOneWordEdit(_ a: [String], _ b: [String]) -> Bool {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        guard !short.isEmpty, long.count - short.count <= 1 else { return false }
        if short.count == long.count {
            return short.count > 1 && zip(short, long).filter { $0 != $1 }.count <= 1
        }
        let prefix = zip(short, long).prefix { $0 == $1 }.count
        return short[prefix...].elementsEqual(long[(prefix + 1)...])
    }

    /// `#243 (curated, G. K. Chesterton): "…"`: enough to find the quote and see the likeness.
    static func describe(_ quote: StoredQuote) -> String {
        let origin = [quote.source.rawValue, quote.author].compactMap { $0 }.joined(separator: ", ")
        let shown = quote.text.count > 120 ? String(quote.text.prefix(117)) + "…" : quote.text
        return "#\(quote.id) (\(origin)): \"\(shown)\""
    }
}

extension NoveltyGate {
    /// Cosine similarity of two vectors (the scan's own arithmetic); vectors of different lengths,
    /// empty or zero vectors are unrelated (0).
    public static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var matrix = EmbeddingMatrix(model: "", dimensions: b.count)
        matrix.append(id: 0, vector: b)
        return matrix.nearest(to: a)?.similarity ?? 0
    }
}
