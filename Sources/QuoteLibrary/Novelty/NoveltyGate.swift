/// DESIGN §6 step 4: a candidate whose cosine similarity to any stored quote is ≥ 0.90 is a
/// near-duplicate. Without an embedder, or with nothing stored to compare against, the gate
/// passes and says novelty was not proven.
public struct NoveltyGate: Sendable {
    public static let threshold: Float = 0.90

    public struct Verdict: Sendable {
        public let result: GateResult
        public let proven: Bool
        /// The candidate's embedding, kept to store with the quote when it is accepted.
        public let embedding: [Float]?
    }

    /// Rows embedded per run when the library has quotes without an embedding from this model.
    public static let backfillPerRun = 64

    public init() {}

    /// `backfill` embeds a bounded number of stored quotes that lack a vector (the pipeline does;
    /// `check` does not write).
    public func evaluate(_ text: String, embedder: Embedder?, store: QuoteStore?, backfill: Bool) async throws -> Verdict {
        guard let embedder else {
            return Verdict(result: .pass(.novelty, note: "novelty not proven: no embedder available"), proven: false, embedding: nil)
        }
        let candidate: [Float]
        do {
            candidate = try await embedder.embed(text)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // A failing embedder is treated like a missing one: the gate cannot prove novelty.
            return Verdict(result: .pass(.novelty, note: "novelty not proven: the embedder failed: \(error)"),
                           proven: false, embedding: nil)
        }
        guard let store else {
            return Verdict(result: .pass(.novelty, note: "novelty not proven: no library to compare against"),
                           proven: false, embedding: candidate)
        }
        if backfill { try await self.backfill(store: store, embedder: embedder) }
        let stored = try store.embeddings(model: embedder.model)
        let missing = try store.countMissingEmbedding(model: embedder.model)
        guard !stored.isEmpty else {
            return Verdict(result: .pass(.novelty, note: "novelty not proven: the library has no embedded quotes"),
                           proven: false, embedding: candidate)
        }
        var closest: (id: Int64, similarity: Float) = (0, -1)
        for (id, vector) in stored {
            let similarity = Self.cosine(candidate, vector)
            if similarity > closest.similarity { closest = (id, similarity) }
        }
        let score = Double(closest.similarity)
        if closest.similarity >= Self.threshold {
            return Verdict(result: .fail(.novelty, "near-duplicate of stored quote \(closest.id) (cosine "
                                         + "\(String(format: "%.3f", score)) ≥ 0.90)", score: score),
                           proven: true, embedding: candidate)
        }
        let note = missing > 0 ? "novelty partly proven: \(missing) stored quotes not embedded yet" : nil
        return Verdict(result: .pass(.novelty, score: score, note: note), proven: missing == 0, embedding: candidate)
    }

    /// Embeds a bounded number of stored quotes that have no vector from this model yet, so the
    /// curated catalog and older rows join the comparison over a few runs.
    private func backfill(store: QuoteStore, embedder: Embedder) async throws {
        guard !store.isReadOnly else { return }
        let pending = try store.quotesMissingEmbedding(model: embedder.model, limit: Self.backfillPerRun)
        guard !pending.isEmpty else { return }
        var vectors: [(id: Int64, vector: [Float])] = []
        for (id, text) in pending {
            try Task.checkCancellation()
            vectors.append((id, try await embedder.embed(text)))
        }
        try Task.checkCancellation()   // an expired budget writes nothing, not even vectors
        try store.storeEmbeddings(vectors, model: embedder.model)
    }

    /// Cosine similarity; vectors of different lengths or zero vectors are unrelated (0).
    public static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var dot: Float = 0, normA: Float = 0, normB: Float = 0
        for index in a.indices {
            dot += a[index] * b[index]
            normA += a[index] * a[index]
            normB += b[index] * b[index]
        }
        guard normA > 0, normB > 0 else { return 0 }
        return dot / (normA.squareRoot() * normB.squareRoot())
    }
}
