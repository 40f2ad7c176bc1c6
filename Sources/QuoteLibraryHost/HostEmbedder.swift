import QuoteLibrary
import Tandem

/// The novelty gate's embedder over a backend with the embeddings capability (the config's
/// `quote.embedder`). The vector space is named after the backend's model, so vectors of
/// another model (or of the lexical embedder) are never compared with these.
public struct HostEmbedder: Embedder {
    let languageModel: LanguageModel

    public init(model: LanguageModel) { languageModel = model }

    public var model: String { "backend:\(languageModel.info.id)" }

    public func embed(_ text: String) async throws -> [Float] {
        try Task.checkCancellation()
        let backend = languageModel.backend
        let result = try await BackendTurns.shared.withTurn(BackendTurns.keys(of: [languageModel])) {
            let token = CancellationToken()
            return await BlockingExecutor.shared.run(cancelling: token) { () -> Result<[[Float]], BackendFailure> in
                do throws(BackendFailure) { return .success(try backend.embed([text], cancellation: token)) } catch { return .failure(error) }
            }
        }
        switch result {
        case .success(let vectors):
            guard vectors.count == 1, let vector = vectors.first, !vector.isEmpty else {
                throw BackendFailure(.decoding, "\(languageModel.id) returned \(vectors.count) vectors for one text")
            }
            return vector
        case .failure(let failure):
            if failure.status == .cancelled || Task.isCancelled { throw CancellationError() }
            throw failure
        }
    }
}
