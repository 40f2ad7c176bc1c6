extension Tokenizer {
    /// The tokenizer a model file describes. Flags the file leaves out get llama.cpp's defaults:
    /// SentencePiece and Llama 3 vocabularies add BOS, SentencePiece prefixes a space.
    public convenience init(gguf: GGUFFile) throws {
        var vocabulary = try TokenizerVocabulary(gguf: gguf)
        vocabulary.addSpacePrefix = try gguf.bool("tokenizer.ggml.add_space_prefix")
        if try gguf.bool("tokenizer.ggml.add_bos_token") == nil {
            let llama3Family = ["llama3", "llama-v3", "llama-bpe", "falcon3", "pixtral"]
            vocabulary.addBos = vocabulary.model == Kind.sentencePiece.rawValue
                || llama3Family.contains(vocabulary.preTokenizer ?? "")
        }
        try self.init(vocabulary: vocabulary)
    }
}
