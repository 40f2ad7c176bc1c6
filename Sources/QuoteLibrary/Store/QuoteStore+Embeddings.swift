import Foundation

/// Where the database stood when something was read from it: `PRAGMA data_version` changes when
/// another connection commits, `totalChanges` when this one writes.
struct ChangeStamp: Equatable {
    let dataVersion: Int64
    let ownChanges: Int64
}

/// The embedding storage behind the novelty gate: one float32 blob per (model, quote) in
/// `quote_embeddings`, so each model's vectors are kept apart and a changed model is embedded
/// anew without touching another's.
extension QuoteStore {
    /// Every vector of `model` with `dimensions` values, as one matrix. Loaded once and kept
    /// until the database changes (a write here or a commit by another process).
    public func embeddingMatrix(model: String, dimensions: Int) throws -> EmbeddingMatrix {
        try withConnection { connection in
            let stamp = try Self.stamp(connection)
            if let cached = cachedMatrix, cached.stamp == stamp, cached.matrix.model == model,
               cached.matrix.dimensions == dimensions {
                return cached.matrix
            }
            var matrix = EmbeddingMatrix(model: model, dimensions: dimensions)
            try connection.query("SELECT quote_id, vector FROM quote_embeddings WHERE model = ? AND dimensions = ? ORDER BY quote_id",
                                 [.text(model), .integer(Int64(dimensions))]) { row in
                matrix.append(id: row.int(0), blob: row.blobBytes(1))
            }
            cachedMatrix = (stamp, matrix)
            return matrix
        }
    }

    /// Quotes without a vector of `model` with `dimensions` values (a vector of another width
    /// came from an earlier model under the same id), oldest first.
    public func quotesMissingEmbedding(model: String, dimensions: Int, limit: Int = .max) throws -> [(id: Int64, text: String)] {
        try withConnection { connection in
            try connection.query("""
                SELECT q.id, q.text FROM quotes q WHERE NOT EXISTS (SELECT 1 FROM quote_embeddings e
                    WHERE e.model = ? AND e.quote_id = q.id AND e.dimensions = ?)
                ORDER BY q.id LIMIT ?
                """, [.text(model), .integer(Int64(dimensions)), .integer(Int64(min(limit, Int(Int64.max))))]) {
                ($0.int(0), $0.text(1))
            }
        }
    }

    public func countMissingEmbeddings(model: String, dimensions: Int) throws -> Int {
        try withConnection {
            Int(try $0.scalarInt("""
                SELECT count(*) FROM quotes q WHERE NOT EXISTS (SELECT 1 FROM quote_embeddings e
                    WHERE e.model = ? AND e.quote_id = q.id AND e.dimensions = ?)
                """, [.text(model), .integer(Int64(dimensions))]))
        }
    }

    /// The models that have vectors here, with how many (for saying what changed).
    public func embeddingModels() throws -> [(model: String, dimensions: Int, count: Int)] {
        try withConnection { connection in
            try connection.query("SELECT model, dimensions, count(*) FROM quote_embeddings GROUP BY model, dimensions ORDER BY model") {
                ($0.text(0), Int($0.int(1)), Int($0.int(2)))
            }
        }
    }

    /// The highest quote id (0 for an empty library): what a novelty scan has compared through.
    public func highestQuoteID() throws -> Int64 {
        try withConnection { try $0.scalarInt("SELECT coalesce(max(id), 0) FROM quotes") }
    }

    /// The lowest quote id (0 for an empty library).
    public func lowestQuoteID() throws -> Int64 {
        try withConnection { try $0.scalarInt("SELECT coalesce(min(id), 0) FROM quotes") }
    }

    /// Stores vectors of existing quotes in one transaction (a vector of another width under the
    /// same model is replaced). A quote id that does not exist fails the whole batch.
    public func storeEmbeddings(_ vectors: [(id: Int64, vector: [Float])], model: String) throws {
        try withConnection { connection in
            try connection.transaction {
                for (id, vector) in vectors { try Self.insertEmbedding(connection, quoteID: id, model: model, vector: vector) }
            }
        }
    }

    static func insertEmbedding(_ connection: SQLiteConnection, quoteID: Int64, model: String, vector: [Float]) throws {
        guard !vector.isEmpty, vector.allSatisfy(\.isFinite) else {
            throw StoreError(.invalidArgument, "\(connection.path): refusing to store a vector of quote \(quoteID) "
                             + "that is empty or not finite (model \(model))")
        }
        do {
            try connection.run("INSERT OR REPLACE INTO quote_embeddings (model, quote_id, dimensions, vector) VALUES (?, ?, ?, ?)",
                               [.text(model), .integer(quoteID), .integer(Int64(vector.count)), .blob(EmbeddingBlob.encode(vector))])
        } catch let error as StoreError where error.code == .constraint {
            throw StoreError(.constraint, "\(connection.path): no quote \(quoteID) to store a vector for (\(error.message))")
        }
    }

    /// Inside the transaction that stores a checked quote: quotes stored after the check (by
    /// another process) are compared too, so a near-copy never slips in between check and store.
    static func requireNoNewNearCopy(_ connection: SQLiteConnection, proof: NoveltyProof, path: String) throws {
        let newID = connection.lastInsertRowID
        let unembedded = try connection.scalarInt("""
            SELECT count(*) FROM quotes q WHERE q.id > ? AND q.id <> ? AND NOT EXISTS (SELECT 1 FROM quote_embeddings e
                WHERE e.model = ? AND e.quote_id = q.id AND e.dimensions = ?)
            """, [.integer(proof.comparedThrough), .integer(newID), .text(proof.model), .integer(Int64(proof.vector.count))])
        guard unembedded == 0 else {
            throw StoreError(.constraint, "\(path): \(unembedded) quotes were stored while this one was checked and have "
                             + "no vector of \(proof.model) to compare; nothing stored, try again")
        }
        var newer = EmbeddingMatrix(model: proof.model, dimensions: proof.vector.count)
        try connection.query("SELECT quote_id, vector FROM quote_embeddings WHERE model = ? AND dimensions = ? AND quote_id > ? AND quote_id <> ?",
                             [.text(proof.model), .integer(Int64(proof.vector.count)), .integer(proof.comparedThrough),
                              .integer(newID)]) { row in
            newer.append(id: row.int(0), blob: row.blobBytes(1))
        }
        if let match = newer.nearest(to: proof.vector), match.similarity >= proof.threshold {
            throw StoreError(.constraint, "\(path): quote \(match.id), stored while this one was checked, is a near-duplicate "
                             + "(cosine \(String(format: "%.3f", match.similarity)) ≥ \(proof.threshold)); nothing stored")
        }
    }

    private static func stamp(_ connection: SQLiteConnection) throws -> ChangeStamp {
        ChangeStamp(dataVersion: try connection.scalarInt("PRAGMA data_version"), ownChanges: connection.totalChanges)
    }
}
