/// A model that turns a text into one sentence vector: the BERT-family `EncoderModel`, or a
/// `LlamaModel` whose architecture is a sentence encoder (EmbeddingGemma). What the local runner's
/// embeddings backend needs of either.
public protocol SentenceEncoder: AnyObject, Sendable {
    var modelVersion: String { get }
    /// Width of the sentence vector.
    var dimensions: Int { get }
    /// The tokens embedding runs on `text`: its start and end markers included, cut to the
    /// model's positions.
    func tokens(for text: String) -> [Int32]
    /// The last layer's state of every token of one text (the pass the embedding pools).
    func tokenStates(tokens: [Int32], shouldCancel: () -> Bool) throws(LlamaError) -> [[Float]]
    /// The sentence vector `tokenStates` pool to: the same one `embed(tokenLists:)` gives.
    func pooled(_ states: [[Float]]) -> [Float]
    /// The sentence vectors of several texts' tokens, in order.
    func embed(tokenLists: [[Int32]], shouldCancel: () -> Bool) throws(LlamaError) -> [[Float]]
}

extension EncoderModel: SentenceEncoder {
    public func pooled(_ states: [[Float]]) -> [Float] { Self.pooled(states) }
}
