/// The per-token states behind the paraphrase step's token alignment, one row per (model, quote)
/// in `quote_token_states`, kept beside the quote's vector of the same model and filled when it is
/// (`LibraryEmbedding`): a check then runs the encoder on its candidate only. A state is as wide
/// as the model's vector (the vector is their mean), so both are keyed by the same `dimensions`.
extension QuoteStore {
    /// The stored states of quote `id` under `model` with `dimensions` values a token; nil when
    /// there are none (or only of another width, from an earlier model under the same id).
    public func tokenStates(quoteID id: Int64, model: String, dimensions: Int) throws -> TokenStates? {
        try withConnection { connection in
            let rows = try connection.query("""
                SELECT tokens, ids, states FROM quote_token_states WHERE model = ? AND quote_id = ? AND dimensions = ?
                """, [.text(model), .integer(id), .integer(Int64(dimensions))]) { row -> TokenStates? in
                TokenStatesBlob.decode(ids: row.blobBytes(1), states: row.blobBytes(2), tokens: Int(row.int(0)),
                                       dimensions: dimensions)
            }
            guard let row = rows.first else { return nil }
            guard let states = row else {
                throw StoreError(.corrupt, "\(path): the token states of quote \(id) (model \(model)) do not decode")
            }
            return states
        }
    }

    /// Quotes without states of `model` with `dimensions` values a token, oldest first.
    public func quotesMissingTokenStates(model: String, dimensions: Int) throws -> [(id: Int64, text: String)] {
        try withConnection { connection in
            try connection.query("""
                SELECT q.id, q.text FROM quotes q WHERE NOT EXISTS (SELECT 1 FROM quote_token_states s
                    WHERE s.model = ? AND s.quote_id = q.id AND s.dimensions = ?)
                ORDER BY q.id
                """, [.text(model), .integer(Int64(dimensions))]) { ($0.int(0), $0.text(1)) }
        }
    }

    /// How many quotes have states of `model` with `dimensions` values a token.
    public func countTokenStates(model: String, dimensions: Int) throws -> Int {
        try withConnection {
            Int(try $0.scalarInt("SELECT count(*) FROM quote_token_states WHERE model = ? AND dimensions = ?",
                                 [.text(model), .integer(Int64(dimensions))]))
        }
    }

    /// Stores states of existing quotes in one transaction (states of another width under the same
    /// model are replaced). A quote id that does not exist fails the whole batch.
    public func storeTokenStates(_ rows: [(id: Int64, states: TokenStates)], model: String, dimensions: Int) throws {
        try withConnection { connection in
            try connection.transaction {
                for (id, states) in rows {
                    try Self.insertTokenStates(connection, quoteID: id, model: model, dimensions: dimensions, states: states)
                }
            }
        }
    }

    static func insertTokenStates(_ connection: SQLiteConnection, quoteID: Int64, model: String, dimensions: Int,
                                  states: TokenStates) throws {
        guard dimensions > 0, states.states.allSatisfy({ $0.count == dimensions && $0.allSatisfy(\.isFinite) }) else {
            throw StoreError(.invalidArgument, "\(connection.path): refusing to store token states of quote \(quoteID) that "
                             + "are not \(dimensions) finite values each (model \(model))")
        }
        do {
            try connection.run("""
                INSERT OR REPLACE INTO quote_token_states (model, quote_id, tokens, dimensions, ids, states) VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(model), .integer(quoteID), .integer(Int64(states.ids.count)), .integer(Int64(dimensions)),
                      .blob(TokenStatesBlob.encodeIDs(states.ids)), .blob(TokenStatesBlob.encodeStates(states.states))])
        } catch let error as StoreError where error.code == .constraint {
            throw StoreError(.constraint, "\(connection.path): no quote \(quoteID) to store token states for (\(error.message))")
        }
    }

    /// What a checked quote brings to the library in its storing transaction: its vector and,
    /// when the check computed them, its per-token states.
    static func insertProof(_ connection: SQLiteConnection, quoteID: Int64, proof: NoveltyProof) throws {
        try insertEmbedding(connection, quoteID: quoteID, model: proof.model, vector: proof.vector)
        if let states = proof.tokenStates {
            try insertTokenStates(connection, quoteID: quoteID, model: proof.model, dimensions: proof.vector.count, states: states)
        }
    }
}
