import Tandem
import Testing

/// Embeddings through the ABI's two-call idiom on the real model.
extension RealModelTests { @Suite struct Embeddings {
    let backend: PluginBackend

    init() throws { backend = try RunnerPlugin.shared.get() }

    func cosine(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }

    @Test func vectorsAreUnitLengthDeterministicAndModelWide() throws {
        #expect(backend.info.capabilities.contains(.embeddings))
        #expect(backend.info.embeddingDimensions == 576)
        let texts = ["The cat sleeps on the warm windowsill.", "A cat is napping in the sun by the window.", "Quarterly tax filings are due in April."]
        let vectors = try backend.embed(texts, cancellation: CancellationToken())
        #expect(vectors.count == 3)
        for vector in vectors {
            #expect(vector.count == 576)
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            #expect(abs(norm - 1) < 1e-4)
        }
        #expect(try backend.embed([texts[0]], cancellation: CancellationToken())[0] == vectors[0])
        // A weak signal, but two paraphrases sit closer than an unrelated sentence.
        #expect(cosine(vectors[0], vectors[1]) > cosine(vectors[0], vectors[2]))
    }

    @Test func emptyTextIsTheZeroVector() throws {
        let vectors = try backend.embed(["fine", ""], cancellation: CancellationToken())
        #expect(vectors[1] == [Float](repeating: 0, count: 576))
        #expect(vectors[0] != vectors[1])
    }
}}
