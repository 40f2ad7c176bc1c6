/// Every stored quote is embedded once per embedding model, before anything is compared with
/// the library: on the first use of a model (a new library, or a model changed since the
/// vectors were stored), and when a quote is added. Vectors are stored a batch per transaction,
/// so an interrupted run leaves whole batches and never a half-stored one. When the paraphrase
/// step reads per-token states (`NoveltyGate.readsTokenStates`), each quote's states are computed
/// and stored the same way, so a check encodes its candidate only.
public enum LibraryEmbedding {
    /// Texts embedded (and stored) per transaction.
    public static let batchSize = 64

    /// Called after each batch with (encoded so far, total to encode: missing vectors and missing
    /// token states).
    public typealias Progress = @Sendable (_ done: Int, _ total: Int) -> Void

    /// The whole library's vectors, and what a read-only library could not keep.
    public struct Library: Sendable {
        public let matrix: EmbeddingMatrix
        /// Vectors computed for this matrix only (the library is read-only).
        public let memoryOnly: Int
        /// Token states computed for this check only, by quote id (the library is read-only).
        public let memoryTokenStates: [Int64: TokenStates]
    }

    /// Embeds every quote without a vector of `embedder.model` of `dimensions` values, and with
    /// `tokenStates` every quote without its states, and returns the whole library's matrix. A
    /// read-only library keeps what it computed in memory for this check only.
    public static func embedMissing(store: QuoteStore, embedder: Embedder, dimensions: Int, tokenStates: Bool = false,
                                    progress: Progress? = nil) async throws -> Library {
        // The loaded matrix is kept between checks; when it holds a vector for every quote (its
        // ids are distinct quotes: vectors go with their quote), nothing is missing and the
        // per-quote lookup below is skipped. The same count settles the states.
        let quotes = try store.count()
        let loaded = try store.embeddingMatrix(model: embedder.model, dimensions: dimensions)
        let statesComplete = try !tokenStates || store.countTokenStates(model: embedder.model, dimensions: dimensions) == quotes
        if loaded.count == quotes && statesComplete { return Library(matrix: loaded, memoryOnly: 0, memoryTokenStates: [:]) }
        let missing = loaded.count == quotes ? [] : try store.quotesMissingEmbedding(model: embedder.model, dimensions: dimensions)
        let missingStates = statesComplete ? [] : try store.quotesMissingTokenStates(model: embedder.model, dimensions: dimensions)
        let total = missing.count + missingStates.count
        var unsaved: [(id: Int64, vector: [Float])] = []
        var unsavedStates: [Int64: TokenStates] = [:]
        var done = 0
        let lacksStates = Set(missingStates.map(\.id))
        var statesFetched = Set<Int64>()
        func fetchStates(of quotes: some Collection<(id: Int64, text: String)>) async throws {
            guard !quotes.isEmpty else { return }
            var rows: [(id: Int64, states: TokenStates)] = []
            for quote in quotes {
                try Task.checkCancellation()
                rows.append((quote.id, try await embedder.checkedTokenStates(quote.text, dimensions: dimensions,
                                                                             of: "stored quote #\(quote.id)")))
            }
            try Task.checkCancellation()
            if store.isReadOnly {
                for row in rows { unsavedStates[row.id] = row.states }
            } else {
                try store.storeTokenStates(rows, model: embedder.model, dimensions: dimensions)
            }
            statesFetched.formUnion(rows.map(\.id))
            done += rows.count
            progress?(done, total)
        }
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
            progress?(done, total)
            // Right after the batch's vectors, while the embedder may still hold that batch's
            // passes (tandem.llama keeps the last call's, so it runs none again).
            try await fetchStates(of: batch.filter { lacksStates.contains($0.id) }.map { (id: $0.id, text: $0.text) })
        }
        let rest = missingStates.filter { !statesFetched.contains($0.id) }.map { (id: $0.id, text: $0.text) }
        for start in stride(from: 0, to: rest.count, by: batchSize) {
            try await fetchStates(of: rest[start..<min(start + batchSize, rest.count)])
        }
        var matrix = try store.embeddingMatrix(model: embedder.model, dimensions: dimensions)
        for row in unsaved { matrix.append(id: row.id, vector: row.vector) }
        return Library(matrix: matrix, memoryOnly: unsaved.count, memoryTokenStates: unsavedStates)
    }

    /// Embeds what the library lacks for `embedder` (with the token states `gate` reads) before a
    /// command starts its budget, so the first use of a model never eats a draft's time. The width
    /// comes from one embedding.
    public static func prepare(store: QuoteStore, embedder: Embedder, gate: NoveltyGate = NoveltyGate(),
                               progress: Progress? = nil) async throws {
        guard let first = try store.quote(id: try store.lowestQuoteID()) else { return }
        let probe = try await embedder.embed(first.text)
        try NoveltyError.check(probe, dimensions: probe.count, model: embedder.model, of: "stored quote #\(first.id)")
        _ = try await embedMissing(store: store, embedder: embedder, dimensions: probe.count,
                                   tokenStates: gate.readsTokenStates(embedder), progress: progress)
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

    /// Per-token states are as wide as the model's vectors (their mean) and finite.
    static func check(_ states: TokenStates, dimensions: Int, model: String, of what: String) throws {
        if let bad = states.states.firstIndex(where: { $0.count != dimensions }) {
            throw NoveltyError("the embedder \(model) returned a token state of \(states.states[bad].count) values for \(what) "
                               + "(token \(bad + 1)); its vectors have \(dimensions)")
        }
        guard states.states.allSatisfy({ $0.allSatisfy(\.isFinite) }) else {
            throw NoveltyError("the embedder \(model) returned token states that are not finite for \(what)")
        }
    }
}
