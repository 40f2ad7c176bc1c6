extension TokenizerVocabulary {
    /// Builds the vocabulary from a file's `tokenizer.ggml.*` metadata: every value of the type
    /// its key needs, and every `tokenizer.ggml.*_token_id` (BOS, EOS, EOT, EOM, padding, ...)
    /// an id inside the vocabulary. `Tokenizer(vocabulary:)` checks the rest (array lengths, the
    /// tokenizer kind, merges).
    public init(gguf: GGUFFile) throws(GGUFError) {
        let path = gguf.path
        guard let model = try gguf.string("tokenizer.ggml.model") else { throw gguf.missing("tokenizer.ggml.model") }
        guard let tokenValues = try gguf.array("tokenizer.ggml.tokens") else { throw gguf.missing("tokenizer.ggml.tokens") }
        guard !tokenValues.isEmpty else { throw GGUFError(.invalidTokenizer, path: path, "tokenizer.ggml.tokens is empty, expected at least one token") }
        func strings(_ key: String, _ values: [GGUFValue]) throws(GGUFError) -> [String] {
            var out: [String] = []
            out.reserveCapacity(values.count)
            for (i, v) in values.enumerated() {
                guard let s = v.string else { throw GGUFError(.wrongMetadataType, path: path, "\(key)[\(i)] is \(v.type), expected string") }
                out.append(s)
            }
            return out
        }
        let tokens = try strings("tokenizer.ggml.tokens", tokenValues)
        let count = tokens.count

        func array<T>(_ key: String, _ expected: String, _ convert: (GGUFValue) -> T?) throws(GGUFError) -> [T] {
            guard let values = try gguf.array(key) else { return [] }
            var out: [T] = []
            out.reserveCapacity(values.count)
            for (i, v) in values.enumerated() {
                guard let x = convert(v) else { throw GGUFError(.wrongMetadataType, path: path, "\(key)[\(i)] is \(v.summary) (\(v.type)), expected \(expected)") }
                out.append(x)
            }
            return out
        }
        let types = try array("tokenizer.ggml.token_type", "a 32-bit integer") { v in v.integer.flatMap { Int32(exactly: $0) } }
        let scores = try array("tokenizer.ggml.scores", "a number") { v in v.float.map(Float.init) }
        let merges = try strings("tokenizer.ggml.merges", try gguf.array("tokenizer.ggml.merges") ?? [])

        var ids: [String: Int32] = [:]
        for key in gguf.metadataKeys where key.hasPrefix("tokenizer.ggml.") && key.hasSuffix("_token_id") {
            guard let id = try gguf.integer(key), id >= 0, id < count else {
                throw GGUFError(.tokenIdOutOfRange, path: path,
                    "\(key) is \(gguf.metadata[key]!.summary), expected a token id in 0...\(count - 1) (the vocabulary has \(count) tokens)")
            }
            ids[key] = Int32(id)
        }

        self.init(
            model: model,
            preTokenizer: try gguf.string("tokenizer.ggml.pre"),
            tokens: tokens, tokenTypes: types, scores: scores, merges: merges,
            bosTokenId: ids["tokenizer.ggml.bos_token_id"],
            eosTokenId: ids["tokenizer.ggml.eos_token_id"],
            eotTokenId: ids["tokenizer.ggml.eot_token_id"],
            unknownTokenId: ids["tokenizer.ggml.unknown_token_id"],
            paddingTokenId: ids["tokenizer.ggml.padding_token_id"],
            addBos: try gguf.bool("tokenizer.ggml.add_bos_token") ?? false,
            addEos: try gguf.bool("tokenizer.ggml.add_eos_token") ?? false)
    }
}

extension GGUFFile {
    /// The model's own chat template (`tokenizer.chat_template`), nil when the file has none.
    public var chatTemplate: String? {
        get throws(GGUFError) { try string("tokenizer.chat_template") }
    }
}
