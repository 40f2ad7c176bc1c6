import LlamaEngine
import TandemPluginKit

/// A text's embedding: the mean over its tokens of the model's final normalised hidden state,
/// scaled to unit length. Evaluated in a fresh pass each time (it does not touch the chat's KV
/// cache). A chat model was never trained for this, so its vectors are a weak similarity signal:
/// good enough to spot near-duplicates, not a retrieval model.
enum MeanPooledEmbedding {
    static func vector(of text: String, index: Int, on model: LoadedLlama, cancellation: PluginCancellation) throws(BackendFailure) -> [Float] {
        let tokens = model.tokenizer.encode(text, addSpecial: true, parseSpecial: false)
        guard !tokens.isEmpty else { throw BackendFailure(.invalidArgument, "inputs[\(index)] is empty: nothing to embed") }
        let session = model.embeddingSession()
        guard tokens.count <= session.contextLength else {
            var failure = BackendFailure(.exceededContextWindowSize, "inputs[\(index)] has \(tokens.count) tokens; the context window is \(session.contextLength)")
            failure.contextLimit = UInt64(session.contextLength)
            failure.contextRequested = UInt64(tokens.count)
            throw failure
        }
        session.reset()
        var sum = [Double](repeating: 0, count: model.model.hyperparameters.embedding)
        do throws(LlamaError) {
            try session.evaluate(tokens, outputs: .hiddenStates, shouldCancel: { cancellation.isCancelled }) { _, state in
                for i in 0..<sum.count { sum[i] += Double(state[i]) }
            }
        } catch {
            throw BackendFailure(error.code == .cancelled ? .cancelled : .invalidArgument, "inputs[\(index)]: \(error.detail)")
        }
        let norm = sum.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard norm > 0 else { return [Float](repeating: 0, count: sum.count) }
        return sum.map { Float($0 / norm) }
    }
}
