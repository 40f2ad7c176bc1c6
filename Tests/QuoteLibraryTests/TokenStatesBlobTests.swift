import Foundation
import Testing
@testable import QuoteLibrary

/// The 8-bit storage of per-token states: ids exact, each value within half its token's step,
/// and the token alignment read from stored states within 0.005 of the float states' (the
/// calibrated cutoffs sit on alignments two decimals apart).
@Suite("Token states storage")
struct TokenStatesBlobTests {
    /// Deterministic pseudo-random states (a fixed LCG), with a large common offset per
    /// dimension as encoder states have, so centring matters.
    static func states(tokens: Int, dimensions: Int, seed: UInt64) -> TokenStates {
        var x = seed
        func next() -> Float {
            x = x &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: x >> 11) % 2000) / 1000 - 1
        }
        let offset = (0..<dimensions).map { Float($0 % 7) * 0.3 }
        return TokenStates(ids: (0..<tokens).map { _ in Int32(abs(Int(next() * 30))) },
                           states: (0..<tokens).map { _ in offset.map { $0 + next() } })
    }

    static func roundTrip(_ states: TokenStates) -> TokenStates? {
        let ids = TokenStatesBlob.encodeIDs(states.ids), values = TokenStatesBlob.encodeStates(states.states)
        return ids.withUnsafeBytes { i in
            values.withUnsafeBytes { v in
                TokenStatesBlob.decode(ids: i, states: v, tokens: states.ids.count, dimensions: states.states.first?.count ?? 1)
            }
        }
    }

    @Test func valuesComeBackWithinHalfAStep() throws {
        let original = Self.states(tokens: 25, dimensions: 384, seed: 1)
        let decoded = try #require(Self.roundTrip(original))
        #expect(decoded.ids == original.ids)
        for (a, b) in zip(original.states, decoded.states) {
            let step = a.reduce(Float(0)) { max($0, abs($1)) } / 127
            #expect(zip(a, b).allSatisfy { abs($0 - $1) <= step / 2 * 1.0001 })
        }
        // A zero state stays zero; no token at all is a valid (empty) row.
        let zero = TokenStates(ids: [3], states: [[0, 0, 0]])
        #expect(Self.roundTrip(zero) == zero)
        #expect(TokenStatesBlob.decode(ids: UnsafeRawBufferPointer(start: nil, count: 0),
                                       states: UnsafeRawBufferPointer(start: nil, count: 0), tokens: 0, dimensions: 384)?.ids == [])
    }

    @Test func theAlignmentOfStoredStatesMatchesTheFloatStates() throws {
        let dimensions = 384
        let centre = (0..<dimensions).map { Float($0 % 7) * 0.3 }
        let alignment = TokenAlignment(centre: centre, lines: 100, tokenIDs: [1, 2, 3], linesWith: [90, 40, 5])
        for seed in UInt64(1)...40 {
            let a = Self.states(tokens: 12 + Int(seed % 15), dimensions: dimensions, seed: seed)
            let b = Self.states(tokens: 10 + Int(seed % 9), dimensions: dimensions, seed: seed + 1000)
            let exact = alignment.unsharedAlignment(a, b)
            let stored = alignment.unsharedAlignment(a, try #require(Self.roundTrip(b)))
            #expect(abs(exact - stored) < 0.005, "seed \(seed): \(exact) against \(stored)")
        }
    }

    @Test func blobsOfTheWrongSizeDoNotDecode() {
        let states = Self.states(tokens: 3, dimensions: 8, seed: 7)
        let ids = TokenStatesBlob.encodeIDs(states.ids), values = TokenStatesBlob.encodeStates(states.states)
        ids.withUnsafeBytes { i in
            values.withUnsafeBytes { v in
                #expect(TokenStatesBlob.decode(ids: i, states: v, tokens: 4, dimensions: 8) == nil)
                #expect(TokenStatesBlob.decode(ids: i, states: v, tokens: 3, dimensions: 9) == nil)
                #expect(TokenStatesBlob.decode(ids: UnsafeRawBufferPointer(rebasing: i.dropLast()), states: v, tokens: 3,
                                               dimensions: 8) == nil)
            }
        }
    }

    // MARK: The store

    @Test func statesAreStoredPerModelAndWidthAndBadOnesAreRefused() throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let id = try #require(try store.addUserQuotes([UserQuote(text: "Mend the fence before the goat finds the lettuce.",
                                                                  locale: "en", author: nil, novelty: nil)]).first)
        let states = Self.states(tokens: 4, dimensions: 8, seed: 3)
        #expect(try store.quotesMissingTokenStates(model: "m", dimensions: 8).map(\.id) == [id])
        try store.storeTokenStates([(id, states)], model: "m", dimensions: 8)
        #expect(try store.tokenStates(quoteID: id, model: "m", dimensions: 8)?.ids == states.ids)
        #expect(try store.tokenStates(quoteID: id, model: "m", dimensions: 9) == nil)
        #expect(try store.tokenStates(quoteID: id, model: "other", dimensions: 8) == nil)
        #expect(try store.countTokenStates(model: "m", dimensions: 8) == 1)
        #expect(try store.quotesMissingTokenStates(model: "m", dimensions: 8).isEmpty)

        #expect(throws: StoreError.self) { try store.storeTokenStates([(id, states)], model: "m", dimensions: 9) }
        let notFinite = TokenStates(ids: [1], states: [[0, .nan, 0, 0, 0, 0, 0, 0]])
        #expect(throws: StoreError.self) { try store.storeTokenStates([(id, notFinite)], model: "m", dimensions: 8) }
        let noQuote = #expect(throws: StoreError.self) { try store.storeTokenStates([(id + 1, states)], model: "m", dimensions: 8) }
        #expect(noQuote?.message.contains("no quote \(id + 1)") == true, "\(String(describing: noQuote))")
        // A refused batch stores nothing: the earlier row is still the one stored.
        #expect(try store.tokenStates(quoteID: id, model: "m", dimensions: 8)?.ids == states.ids)
    }

    /// A row whose scale is not a number (written by something else) is a corrupt library, said
    /// with the quote, never states of NaN.
    @Test func aCorruptRowIsAnErrorNamingTheQuote() throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let id = try #require(try store.addUserQuotes([UserQuote(text: "Mend the fence before the goat finds the lettuce.",
                                                                  locale: "en", author: nil, novelty: nil)]).first)
        var values = TokenStatesBlob.encodeStates([[1, 2]])
        withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { values.replaceSubrange(0..<4, with: $0) }
        try store.withConnection { connection in
            try connection.run("INSERT INTO quote_token_states (model, quote_id, tokens, dimensions, ids, states) VALUES ('m', ?, 1, 2, ?, ?)",
                               [.integer(id), .blob(TokenStatesBlob.encodeIDs([7])), .blob(values)])
        }
        let error = #expect(throws: StoreError.self) { try store.tokenStates(quoteID: id, model: "m", dimensions: 2) }
        #expect(error?.code == .corrupt && error?.message.contains("quote \(id)") == true, "\(String(describing: error))")
    }
}
