/// Turns a text into a vector for the novelty gate. `model` names the embedding space: vectors
/// from different models are never compared, and the novelty threshold is calibrated per model
/// (`NoveltyCalibration`).
public protocol Embedder: Sendable {
    var model: String { get }
    func embed(_ text: String) async throws -> [Float]
    /// Several texts at once, in order (a backend may batch them in one call).
    func embed(batch texts: [String]) async throws -> [[Float]]
    /// Whether `tokenStates` answers (the backend offers per-token states: tandem_abi.h,
    /// `TANDEM_EXT_TOKEN_EMBEDDINGS`). The novelty gate then judges paraphrases with the token
    /// alignment (`AlignedParaphraseDecision`), and says which decision it used.
    var offersTokenStates: Bool { get }
    /// The text's own tokens and their encoder states, before pooling (the pass `embed` pools).
    func tokenStates(_ text: String) async throws -> TokenStates
}

/// An embedder without per-token states was asked for them (the gate never does).
public struct TokenStatesUnavailable: Error, CustomStringConvertible {
    public let model: String
    public var description: String { "the embedder \(model) gives no per-token states" }
}

extension Embedder {
    /// `tokenStates(text)`, checked as the novelty gate needs them: as wide as the model's
    /// vectors and finite (`what` names the text in the error).
    func checkedTokenStates(_ text: String, dimensions: Int, of what: String) async throws -> TokenStates {
        let states = try await tokenStates(text)
        try NoveltyError.check(states, dimensions: dimensions, model: model, of: what)
        return states
    }
}

extension Embedder {
    public var offersTokenStates: Bool { false }
    public func tokenStates(_ text: String) async throws -> TokenStates { throw TokenStatesUnavailable(model: model) }

    public func embed(batch texts: [String]) async throws -> [[Float]] {
        var vectors: [[Float]] = []
        for text in texts {
            try Task.checkCancellation()
            vectors.append(try await embed(text))
        }
        return vectors
    }
}
