extension TokenizerVocabulary {
    /// Builds the vocabulary from a file's `tokenizer.ggml.*` metadata, checking that the arrays
    /// agree in length and every special token id is in range.
    public init(gguf: GGUFFile) throws(GGUFError) {
        let path = gguf.path
        guard let model = try gguf.string("tokenizer.ggml.model") else { throw gguf.missing("tokenizer.ggml.model") }
        guard let tokenValues = try gguf.array("tokenizer.ggml.tokens") else { throw gguf.missing("tokenizer.ggml.tokens") }
        guard !tokenValues.isEmpty else { throw GGUFError(.absurdCount, path: path, "tokenizer.ggml.tokens is empty") }
        var tokens: [String] = []
        tokens.reserveCapacity(tokenValues.count)
        for (i, v) in tokenValues.enumerated() {
            guard let s = v.string else { throw GGUFError(.wrongMetadataType, path: path, "tokenizer.ggml.tokens[\(i)] is \(v.type), expected string") }
            tokens.append(s)
        }
        let count = tokens.count

        func parallelArray<T>(_ key: String, _ convert: (GGUFValue) -> T?) throws(GGUFError) -> [T] {
            guard let values = try gguf.array(key) else { return [] }
            guard values.count == count else {
                throw GGUFError(.absurdCount, path: path, "\(key) has \(values.count) entries but there are \(count) tokens")
            }
            var out: [T] = []
            out.reserveCapacity(count)
            for (i, v) in values.enumerated() {
                guard let x = convert(v) else { throw GGUFError(.wrongMetadataType, path: path, "\(key)[\(i)] is \(v.type)") }
                out.append(x)
            }
            return out
        }
        let types = try parallelArray("tokenizer.ggml.token_type") { v in v.integer.flatMap { Int32(exactly: $0) } }
        let scores = try parallelArray("tokenizer.ggml.scores") { v in v.float.map(Float.init) }

        var merges: [String] = []
        if let values = try gguf.array("tokenizer.ggml.merges") {
            merges.reserveCapacity(values.count)
            for (i, v) in values.enumerated() {
                guard let s = v.string else { throw GGUFError(.wrongMetadataType, path: path, "tokenizer.ggml.merges[\(i)] is \(v.type), expected string") }
                merges.append(s)
            }
        }

        func tokenId(_ key: String) throws(GGUFError) -> Int32? {
            guard let id = try gguf.integer(key) else { return nil }
            guard id >= 0, id < count else {
                throw GGUFError(.tokenIdOutOfRange, path: path, "\(key) is \(id), outside the vocabulary of \(count) tokens")
            }
            return Int32(id)
        }

        self.init(
            model: model,
            preTokenizer: try gguf.string("tokenizer.ggml.pre"),
            tokens: tokens, tokenTypes: types, scores: scores, merges: merges,
            bosTokenId: try tokenId("tokenizer.ggml.bos_token_id"),
            eosTokenId: try tokenId("tokenizer.ggml.eos_token_id"),
            eotTokenId: try tokenId("tokenizer.ggml.eot_token_id"),
            unknownTokenId: try tokenId("tokenizer.ggml.unknown_token_id"),
            paddingTokenId: try tokenId("tokenizer.ggml.padding_token_id"),
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
