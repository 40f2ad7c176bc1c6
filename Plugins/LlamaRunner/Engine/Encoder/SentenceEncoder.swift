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
    /// Every token's state of several texts, in order, several texts per pass: each text's
    /// states are those `tokenStates(tokens:)` gives it alone, so `pooled` of them is its vector.
    func tokenStates(tokenLists: [[Int32]], shouldCancel: () -> Bool) throws(LlamaError) -> [[[Float]]]
}

/// The pooling both encoders share: the states summed in double, in token order, then scaled to
/// unit length (the sum's direction is the mean's).
enum MeanPooling {
    static func sum(_ states: [[Float]]) -> [Double] {
        guard let width = states.first?.count else { return [] }
        var sum = [Double](repeating: 0, count: width)
        for state in states { for i in 0..<width { sum[i] += Double(state[i]) } }
        return sum
    }

    static func unitLength(_ sum: [Double]) -> [Float] {
        let norm = sum.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return sum.map { Float(norm > 0 ? $0 / norm : 0) }
    }
}

extension EncoderModel: SentenceEncoder {
    public func pooled(_ states: [[Float]]) -> [Float] { Self.pooled(states) }
}

/// Opens a sentence encoder file as the model its architecture names: `bert` as `EncoderModel`,
/// a sentence-encoder llama architecture (`gemma-embedding`) as `LlamaModel`. Anything else is an
/// error naming the architecture. `batchTokens` applies to a BERT encoder (`EncoderModel`).
public func loadSentenceEncoder(path: String, threads: Int? = nil, batchTokens: Int? = nil) throws(GGUFError) -> any SentenceEncoder {
    let file = try GGUFFile(path: path)
    if try EncoderModel.isEncoder(file: file) { return try EncoderModel(file: file, threads: threads, batchTokens: batchTokens) }
    let model = try LlamaModel(file: file, threads: threads)
    guard model.hyperparameters.traits.sentenceEncoder else {
        throw GGUFError(.unsupportedArchitecture, path: path,
                        "general.architecture is \"\(model.hyperparameters.architecture)\", a chat model, expected a sentence encoder")
    }
    return model
}
