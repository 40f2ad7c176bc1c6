/// Every stored quote is embedded once per embedding model, before anything is compared with
/// the library: on the first use of a model (a new library, or a model changed since the
/// vectors were stored), and when a quote is added. Vectors are stored a batch per transaction,
/// so an interrupted run leaves whole batches and never a half-stored one.
public enum LibraryEmbedding {
    /// Texts embedded (and stored) per transaction.
    public static let batchSize = 64

    /// Called after each batch with (embedded so far, total missing).
    public typealias Progress = @Sendable (_ done: Int, _ total: Int) -> Void

    /// Embeds every quote without a vector of `embedder.model` of `dimensions` values and returns
    /// the whole library's matrix. A read-only library keeps the new vectors for this matrix
    /// only (`memoryOnly` counts them).
    public static func embedMissing(store: QuoteStore, embedder: Embedder, dimensions: Int,
                                    progress: Progress? = nil) async throws -> (matrix: EmbeddingMatrix, memoryOnly: Int) {
        // The loaded matrix is kept between checks; when it holds a vector for every quote (its
        // ids are distinct quotes: vectors go with their quote), nothing is missing and the
        // per-quote lookup below is skipped.
        let loaded = try store.embeddingMatrix(model: embedder.model, dimensions: dimensions)
        if loaded.count == (try store.count()) { return (loaded, 0) }
        let missing = try store.quotesMissingEmbedding(model: embedder.model, dimensions: dimensions)
        var unsaved: [(id: Int64, vector: [Float])] = []
        var done = 0
        for start in stride(from: 0, to: missing.count, by: batchSize) {
            try Task.checkCancellation()
            let batch = Array(missing[start..<min(start + batchSize, missing.count)])
            let vectors = try await embedder.embed(batch: batch.map(\.text))
            guard vectors.count == batch.count else {
                throw NoveltyError("the embedder \(embedder.model) returned \(vectors.count) vectors for \(batch.count) texts")
            }
            var rows: [(id: Int64, vector: [Float])] = []
            for (quote, vector) in zip(batch, vectors) {
                try NoveltyError.check(vector, dimensions: dimensions, model: embedder.model, of: "stored quote #\(quote.id)")
                rows.append((quote.id, vector))
            }
            try Task.checkCancellation()   // a cancelled run stores no batch it did not finish
            if store.isReadOnly { unsaved += rows } else { try store.storeEmbeddings(rows, model: embedder.model) }
            done += rows.count
            progress?(done, missing.count)
        }
        var matrix = try store.embeddingMatrix(model: embedder.model, dimensions: dimensions)
        for row in unsaved { matrix.append(id: row.id, vector: row.vector) }
        return (matrix, unsaved.count)
    }

    /// Embeds what the library lacks for `embedder` before a command starts its budget (so the
    /// first use of a model never eats a draft's time). The width comes from one embedding.
    public static func prepare(store: QuoteStore, embedder: Embedder, progress: Progress? = nil) async throws {
        guard let first = try store.quote(id: try store.lowestQuoteID()) else { return }
        let probe = try await embedder.embed(first.text)
        try NoveltyError.check(probe, dimensions: probe.count, model: embedder.model, of: "stored quote #\(first.id)")
        _ = try await embedMissing(store: store, embedder: embedder, dimensions: probe.count, progress: progress)
    }
}

/// The novelty gate could not compare: what the embedder returned, or which text failed.
public struct NoveltyError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }

    static func check(_ vector: [Float], dimensions: Int, model: String, of what: String) throws {
        guard !vector.isEmpty else { throw NoveltyError("the embedder \(model) returned an empty vector for \(what)") }
        guard vector.count == dimensions else {
            throw NoveltyError("the embedder \(model) returned \(vector.count) values for \(what), \(dimensions) for the others")
        }
        guard vector.allSatisfy(\.isFinite) else {
            throw NoveltyError("the embedder \(model) returned values that are not finite for \(what)")
        }
    }
}
