/// Everything a tokenizer needs from a model file's `tokenizer.ggml.*` metadata, each value of
/// its type and each id inside the vocabulary (the reader checks); `Tokenizer(vocabulary:)`
/// checks that the parts agree.
///
/// The GGUF reader builds it (`TokenizerVocabulary(gguf:)`); the tokenizers consume it. Keeping
/// it a plain value type lets tokenizer tests build small vocabularies by hand.
public struct TokenizerVocabulary: Sendable {
    /// `tokenizer.ggml.model`: `gpt2` (byte-level BPE) or `llama` (SentencePiece).
    public var model: String
    /// `tokenizer.ggml.pre`: the pre-tokenizer name (`smollm`, `gpt2`, `llama3`, `qwen2`, ...);
    /// nil when the file does not say.
    public var preTokenizer: String?
    /// `tokenizer.ggml.tokens`, indexed by token id.
    public var tokens: [String]
    /// `tokenizer.ggml.token_type`, indexed by token id (1 normal, 2 unknown, 3 control,
    /// 4 user-defined, 5 unused, 6 byte); empty when absent.
    public var tokenTypes: [Int32]
    /// `tokenizer.ggml.scores`, indexed by token id; empty when absent.
    public var scores: [Float]
    /// `tokenizer.ggml.merges`, in priority order, each "left right"; empty for SentencePiece.
    public var merges: [String]
    public var bosTokenId: Int32?
    public var eosTokenId: Int32?
    /// `tokenizer.ggml.eot_token_id`, the end-of-turn token when it differs from EOS.
    public var eotTokenId: Int32?
    public var unknownTokenId: Int32?
    public var paddingTokenId: Int32?
    /// `tokenizer.ggml.add_bos_token` / `add_eos_token`.
    public var addBos: Bool
    public var addEos: Bool
    /// `tokenizer.ggml.add_space_prefix`; nil when the file does not say (SentencePiece then
    /// prefixes a space, as llama.cpp does; byte-level BPE never does).
    public var addSpacePrefix: Bool? = nil

    public init(
        model: String, preTokenizer: String?, tokens: [String], tokenTypes: [Int32], scores: [Float],
        merges: [String], bosTokenId: Int32?, eosTokenId: Int32?, eotTokenId: Int32?,
        unknownTokenId: Int32?, paddingTokenId: Int32?, addBos: Bool, addEos: Bool
    ) {
        self.model = model
        self.preTokenizer = preTokenizer
        self.tokens = tokens
        self.tokenTypes = tokenTypes
        self.scores = scores
        self.merges = merges
        self.bosTokenId = bosTokenId
        self.eosTokenId = eosTokenId
        self.eotTokenId = eotTokenId
        self.unknownTokenId = unknownTokenId
        self.paddingTokenId = paddingTokenId
        self.addBos = addBos
        self.addEos = addEos
    }
}
