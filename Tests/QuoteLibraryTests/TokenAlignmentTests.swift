import Foundation
import Synchronization
import Testing
@testable import QuoteLibrary

/// The token-alignment feature of the paraphrase decision, and the gate's use of it: the decision
/// named in every verdict, token states computed only where they can change the answer.
@Suite("Novelty token alignment")
struct TokenAlignmentTests {
    /// A centre at the origin of 3 dimensions, and 9 tuning lines in which token 1 occurs 8 times
    /// (common) and token 2 once (rare); every other id occurs in none.
    static let alignment = TokenAlignment(centre: [0, 0, 0], lines: 9, tokenIDs: [1, 2], linesWith: [8, 1])

    static func states(_ pairs: [(Int32, [Float])]) -> TokenStates {
        TokenStates(ids: pairs.map(\.0), states: pairs.map(\.1))
    }

    @Test func theWeightIsTheInverseDocumentFrequencyOverTheTuningLines() {
        #expect(abs(Self.alignment.weight(1) - log(10.0 / 9)) < 1e-12)
        #expect(abs(Self.alignment.weight(2) - log(10.0 / 2)) < 1e-12)
        #expect(abs(Self.alignment.weight(77) - log(10.0)) < 1e-12)
    }

    @Test func linesWithNothingUnsharedAlignFully() {
        let a = Self.states([(5, [1, 0, 0]), (6, [0, 1, 0])])
        let b = Self.states([(6, [0, 0, 1]), (5, [0, 1, 0]), (6, [1, 1, 1])])
        #expect(Self.alignment.unsharedAlignment(a, b) == 1)
        #expect(Self.alignment.unsharedAlignment(a, Self.states([])) == 1)
    }

    /// Shared ids are left out: only the tokens each line lacks are matched, so a same-topic line
    /// that keeps the frame (shared tokens) and swaps the content (unshared, unlike) scores low
    /// however alike the frame is.
    @Test func onlyTheUnsharedTokensAreMatched() {
        let frame: (Int32, [Float]) = (5, [1, 0, 0])
        let alike = Self.alignment.unsharedAlignment(Self.states([frame, (10, [0, 1, 0])]), Self.states([frame, (11, [0, 2, 0])]))
        #expect(abs(alike - 1) < 1e-6)
        let unlike = Self.alignment.unsharedAlignment(Self.states([frame, (10, [0, 1, 0])]), Self.states([frame, (11, [0, 0, 1])]))
        #expect(abs(unlike) < 1e-6)
        let opposite = Self.alignment.unsharedAlignment(Self.states([(10, [0, 1, 0])]), Self.states([(11, [0, -1, 0])]))
        #expect(abs(opposite + 1) < 1e-6)
    }

    /// Each direction's best matches are averaged with IDF weights: a rare token matched well
    /// outweighs a common one matched badly. Recall here is (w₂·1 + w₁·0) / (w₂ + w₁), precision 1.
    @Test func rareTokensWeighMore() {
        let a = Self.states([(2, [1, 0, 0]), (1, [0, 1, 0])])
        let b = Self.states([(3, [1, 0, 0])])
        let (rare, common) = (Self.alignment.weight(2), Self.alignment.weight(1))
        let recall = rare / (rare + common)
        let expected = 2 * recall / (recall + 1)
        #expect(abs(Self.alignment.unsharedAlignment(a, b) - expected) < 1e-6)
        #expect(abs(Self.alignment.unsharedAlignment(b, a) - expected) < 1e-6)
        #expect(expected > 0.8)
    }

    /// The states are centred before their cosines: two states that differ only by the centre's
    /// common direction do not look alike.
    @Test func statesAreCentredFirst() {
        let centred = TokenAlignment(centre: [10, 0, 0], lines: 1, tokenIDs: [], linesWith: [])
        let a = Self.states([(10, [10, 1, 0])]), b = Self.states([(11, [10, 0, 1])])
        #expect(abs(centred.unsharedAlignment(a, b)) < 1e-6)
        #expect(Self.alignment.unsharedAlignment(a, b) > 0.98)
    }

    /// The alignment's dot products run on `FloatDot.dot`; with the plain loop instead, the answer
    /// is the same up to float rounding, at an encoder's width and at widths with a tail.
    @Test(arguments: [3, 17, 768])
    func theSIMDAlignmentAgreesWithThePlainLoop(width: Int) {
        var random = SystemRandomNumberGenerator()
        func line(_ ids: [Int32]) -> TokenStates {
            TokenStates(ids: ids, states: ids.map { _ in (0..<width).map { _ in Float.random(in: -1...1, using: &random) } })
        }
        let alignment = TokenAlignment(centre: (0..<width).map { _ in Float.random(in: -0.2...0.2, using: &random) }, lines: 9,
                                       tokenIDs: [1, 2], linesWith: [8, 1])
        let a = line(Array(1...30)), b = line([1, 2] + Array(40...57))
        let fast = alignment.unsharedAlignment(a, b), plain = alignment.unsharedAlignment(a, b, dot: FloatDot.dotByReference)
        #expect(abs(fast - plain) < 1e-5, "\(fast) vs \(plain)")
        #expect(fast != 1)   // something unshared was aligned
    }

    /// The log-odds are linear in the alignment, so its range over −1...1 bounds the answer before
    /// any token state is computed, and `mayCall` bounds it over every wording too.
    @Test func theDecisionsRangeBoundsEveryAlignment() {
        let decision = AlignedParaphraseDecision(weights: [50, 4, -10, 1], bias: -45, cutoff: 1.5, alignment: Self.alignment,
                                                 heldOutParaphrasesCaught: 0, heldOutFalseAlarms: 0, heldOutUnrelatedCaught: 0)
        let (a, b) = ("Carry the spare key to your neighbour.", "Bring your neighbour the spare key.")
        let range = decision.range(cosine: 0.9, a, b)
        for alignment in stride(from: -1.0, through: 1.0, by: 0.25) {
            #expect(range.contains(decision.logOdds(cosine: 0.9, alignment: alignment, a, b)))
        }
        #expect(abs(range.upperBound - range.lowerBound - 8) < 1e-9)
        #expect(decision.mayCall(cosine: 0.9))
        #expect(!decision.mayCall(cosine: 0.7))   // −45 + 35 + 4 + 1 < 1.5
    }

    // MARK: The gate

    /// The lexical vectors under one model id, with per-token states when `tokens` is set: each
    /// folded word a token (its id hashed from it), its state the word's lexical vector. Counts the
    /// token-state passes.
    final class TokenEmbedder: Embedder {
        let model = "token-lexical"
        let tokens: Bool
        let failing: Bool
        private let inner = LexicalEmbedder()
        private let passes = Mutex(0)
        init(tokens: Bool, failing: Bool = false) { (self.tokens, self.failing) = (tokens, failing) }

        var tokenStatePasses: Int { passes.withLock { $0 } }
        var offersTokenStates: Bool { tokens }
        func embed(_ text: String) async throws -> [Float] { inner.vector(text) }
        func tokenStates(_ text: String) async throws -> TokenStates {
            guard tokens else { throw TokenStatesUnavailable(model: model) }
            passes.withLock { $0 += 1 }
            if failing { throw TokenStatesUnavailable(model: "a broken encoder") }
            let words = NoveltyGate.editWords(text)
            return TokenStates(ids: words.map { Int32(truncatingIfNeeded: $0.hashValue & 0x7fff_ffff) }, states: words.map(inner.vector))
        }
    }

    static let stored = "Carry the spare key to your neighbour before the evening rain reaches her porch."
    static let candidate = "Bring the spare key over to the woman next door before the rain comes."

    static func library(_ folder: TemporaryFolder) throws -> QuoteStore {
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        _ = try store.addUserQuotes([UserQuote(text: stored, locale: "en", author: nil, novelty: nil)])
        return store
    }

    /// A calibration whose two decisions both hinge on the nearest quote's cosine: the
    /// token-aligned one calls the pair a paraphrase only with its alignment counted in.
    static func calibration(cosine: Double, alignmentWeight: Double) -> NoveltyCalibration {
        let alignedDecision = AlignedParaphraseDecision(
            weights: [1, alignmentWeight, 0, 0], bias: 0, cutoff: cosine - 0.0001, alignment: TokenAlignment(
                centre: [Float](repeating: 0, count: LexicalEmbedder().dimensions), lines: 1, tokenIDs: [], linesWith: []),
            heldOutParaphrasesCaught: 0.5, heldOutFalseAlarms: 0.02, heldOutUnrelatedCaught: 0)
        return NoveltyCalibration(model: "token-lexical", threshold: 0.999,
                                  paraphrase: ParaphraseDecision(weights: [1, 0, 0], bias: 0, cutoff: cosine + 0.5),
                                  tokenAligned: alignedDecision, heldOutNearDuplicatesCaught: 1, heldOutParaphrasesCaught: 0.25,
                                  heldOutFalseAlarms: 0.03, heldOutPairs: 1)
    }

    static func nearestCosine(_ store: QuoteStore) async throws -> Double {
        let open = try await NoveltyGate(calibrations: [:]).evaluate(candidate, embedder: TokenEmbedder(tokens: false), store: store)
        return try #require(open.result.score)
    }

    @Test func theTokenAlignedDecisionJudgesWhenTheEmbedderGivesStates() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.library(folder)
        let cosine = try await Self.nearestCosine(store)
        // Alignment weight 1: the pair reaches the cutoff only if its alignment is ≥ 0.0001, which
        // the shared words' identical vectors guarantee (cosine + alignment ≥ cutoff).
        let embedder = TokenEmbedder(tokens: true)
        let verdict = try await NoveltyGate(calibrations: ["token-lexical": Self.calibration(cosine: cosine, alignmentWeight: 1)])
            .evaluate(Self.candidate, embedder: embedder, store: store)
        #expect(!verdict.result.passed && verdict.proven)
        #expect(verdict.paraphraseDecision == .tokenAlignment)
        #expect(verdict.result.reason?.contains("token alignment") == true, "\(verdict.result.reason ?? "")")
        // The library's states were filled before the scan (one pass for the stored quote, kept);
        // the check itself encoded its candidate only.
        #expect(verdict.tokenStatePasses == 1 && embedder.tokenStatePasses == 2)
        let stored = try #require(try store.quote(matching: Self.stored))
        #expect(try store.tokenStates(quoteID: stored.id, model: embedder.model, dimensions: LexicalEmbedder().dimensions) != nil)
    }

    /// A second check against the same library reads the stored quotes' states and encodes only
    /// its candidate; a candidate that passes carries its states in its proof, and storing it
    /// stores them, so the next check encodes nothing for it.
    @Test func storedQuotesStatesAreReadNotRecomputed() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.library(folder)
        let cosine = try await Self.nearestCosine(store)
        let gate = NoveltyGate(calibrations: ["token-lexical": Self.calibration(cosine: cosine, alignmentWeight: 1)])
        _ = try await gate.evaluate(Self.candidate, embedder: TokenEmbedder(tokens: true), store: store)
        let again = TokenEmbedder(tokens: true)
        let verdict = try await gate.evaluate(Self.candidate, embedder: again, store: store)
        #expect(!verdict.result.passed && verdict.tokenStatePasses == 1 && again.tokenStatePasses == 1)

        let far = NoveltyGate(calibrations: ["token-lexical": Self.calibration(cosine: cosine + 0.5, alignmentWeight: 0.1)])
        let original = "Paint the garden gate yellow before the grandchildren arrive for the summer."
        let passing = TokenEmbedder(tokens: true)
        let accepted = try await far.evaluate(original, embedder: passing, store: store)
        #expect(accepted.result.passed && accepted.tokenStatePasses == 1 && passing.tokenStatePasses == 1)
        let proof = try #require(accepted.proof)
        let states = try #require(proof.tokenStates)
        #expect(states.ids.count == NoveltyGate.editWords(original).count)
        let id = try #require(try store.addUserQuotes([UserQuote(text: original, locale: "en", author: nil, novelty: proof)]).first)
        let kept = try #require(try store.tokenStates(quoteID: id, model: passing.model, dimensions: proof.vector.count))
        #expect(kept.ids == states.ids)
        let next = TokenEmbedder(tokens: true)
        _ = try await far.evaluate("Sweep the porch steps before the first guests knock on the door tonight.", embedder: next, store: store)
        #expect(next.tokenStatePasses == 1, "only the candidate is encoded: both stored quotes have their states")
    }

    /// A read-only library keeps the states it lacked for the check only, and never writes them.
    @Test func aReadOnlyLibraryKeepsMissingStatesInMemory() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.library(folder)
        let cosine = try await Self.nearestCosine(store)
        let reader = try QuoteStore.openReadOnly(path: folder.path("lib.sqlite"))
        let embedder = TokenEmbedder(tokens: true)
        let verdict = try await NoveltyGate(calibrations: ["token-lexical": Self.calibration(cosine: cosine, alignmentWeight: 1)])
            .evaluate(Self.candidate, embedder: embedder, store: reader)
        #expect(!verdict.result.passed && verdict.paraphraseDecision == .tokenAlignment)
        #expect(verdict.tokenStatePasses == 1 && embedder.tokenStatePasses == 2)
        #expect(try store.countTokenStates(model: embedder.model, dimensions: LexicalEmbedder().dimensions) == 0)
    }

    @Test func withoutTokenStatesTheWordDecisionStandsAndSaysSo() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.library(folder)
        let cosine = try await Self.nearestCosine(store)
        let embedder = TokenEmbedder(tokens: false)
        let verdict = try await NoveltyGate(calibrations: ["token-lexical": Self.calibration(cosine: cosine, alignmentWeight: 1)])
            .evaluate(Self.candidate, embedder: embedder, store: store)
        #expect(verdict.result.passed)
        #expect(verdict.paraphraseDecision == .wordOverlaps(embedderLacksTokenStates: true))
        #expect(verdict.result.reason?.contains("no per-token states") == true, "\(verdict.result.reason ?? "")")
        #expect(verdict.tokenStatePasses == 0)
    }

    /// With a zero alignment weight the cosine alone settles the answer (the range is one
    /// point): no token state is computed.
    @Test func tokenStatesAreComputedOnlyWhereTheyCanChangeTheAnswer() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.library(folder)
        let cosine = try await Self.nearestCosine(store)
        let embedder = TokenEmbedder(tokens: true)
        let verdict = try await NoveltyGate(calibrations: ["token-lexical": Self.calibration(cosine: cosine, alignmentWeight: 0)])
            .evaluate(Self.candidate, embedder: embedder, store: store)
        #expect(!verdict.result.passed)
        #expect(verdict.result.reason?.contains("whatever its token alignment") == true, "\(verdict.result.reason ?? "")")
        // The one pass filled the library (the stored quote's states, kept); the check made none.
        #expect(verdict.tokenStatePasses == 0 && embedder.tokenStatePasses == 1)
        let far = try await NoveltyGate(calibrations: ["token-lexical": Self.calibration(cosine: cosine + 0.5, alignmentWeight: 0.1)])
            .evaluate(Self.candidate, embedder: embedder, store: store)
        #expect(far.result.passed && far.paraphraseDecision == .tokenAlignment)
        // A passing candidate gets its states, for storing with its vector; no stored quote's.
        #expect(far.tokenStatePasses == 1 && far.proof?.tokenStates != nil && embedder.tokenStatePasses == 2)
    }

    @Test func failingTokenStatesRejectAsUnchecked() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.library(folder)
        let cosine = try await Self.nearestCosine(store)
        let verdict = try await NoveltyGate(calibrations: ["token-lexical": Self.calibration(cosine: cosine, alignmentWeight: 1)])
            .evaluate(Self.candidate, embedder: TokenEmbedder(tokens: true, failing: true), store: store)
        #expect(!verdict.result.passed && !verdict.proven)
        #expect(verdict.result.reason?.hasPrefix("novelty not checked: embedding the library with token-lexical failed") == true,
                "\(verdict.result.reason ?? "")")
    }
}
