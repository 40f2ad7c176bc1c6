/// One text's own tokens and the encoder's last hidden state of each, before pooling
/// (tandem_abi.h, `TANDEM_EXT_TOKEN_EMBEDDINGS`): the start and end markers and the backend's
/// prefix are run but left out. `states[i]` belongs to `ids[i]`; every state has the model's
/// embedding width.
public struct TokenEmbeddings: Sendable, Equatable {
    public let ids: [Int32]
    public let states: [[Float]]

    public init(ids: [Int32], states: [[Float]]) {
        precondition(ids.count == states.count, "one state per token")
        (self.ids, self.states) = (ids, states)
    }
}
