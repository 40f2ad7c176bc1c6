/// Turns a text into a vector for the novelty gate. `model` names the embedding space: vectors
/// from different models are never compared, and the novelty threshold is calibrated per model
/// (`NoveltyCalibration`).
public protocol Embedder: Sendable {
    var model: String { get }
    func embed(_ text: String) async throws -> [Float]
    /// Several texts at once, in order (a backend may batch them in one call).
    func embed(batch texts: [String]) async throws -> [[Float]]
}

extension Embedder {
    public func embed(batch texts: [String]) async throws -> [[Float]] {
        var vectors: [[Float]] = []
        for text in texts {
            try Task.checkCancellation()
            vectors.append(try await embed(text))
        }
        return vectors
    }
}
