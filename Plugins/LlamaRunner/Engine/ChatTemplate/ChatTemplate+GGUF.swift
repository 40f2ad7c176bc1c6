extension ChatTemplate {
    /// The template stored in a model file (`tokenizer.chat_template`), with the file's BOS and
    /// EOS token texts. A file without a template is an error: no format is guessed.
    public init(gguf: GGUFFile, tokenizer: Tokenizer) throws {
        guard let source = try gguf.chatTemplate else {
            throw TemplateError(.unsupportedConstruct, "\(gguf.path) has no tokenizer.chat_template")
        }
        try self.init(source: source,
                      bosToken: tokenizer.bosTokenId.map(tokenizer.tokenText) ?? "",
                      eosToken: tokenizer.eosTokenId.map(tokenizer.tokenText) ?? "")
    }
}
