/// Turns a text into a vector for the novelty gate. `model` names the embedding space: vectors
/// from different models are never compared.
public protocol Embedder: Sendable {
    var model: String { get }
    func embed(_ text: String) async throws -> [Float]
}
