import Testing
@testable import LlamaEngine

@Suite struct GGUFFileTests {
    @Test func readsTheDefaultModelsMetadataAndVocabulary() throws {
        let file = try GGUFFile(path: TestPaths.defaultModel)
        #expect(file.version == 3)
        #expect(try file.string("general.architecture") == "llama")
        #expect(try file.integer("llama.block_count") == 30)
        #expect(file.tensors.count == 272)
        #expect(file.tensor(named: "token_embd.weight")?.type == .q8_0)
        #expect(file.tensor(named: "token_embd.weight")?.dimensions == [576, 49152])
        let vocab = try TokenizerVocabulary(gguf: file)
        #expect(vocab.model == "gpt2")
        #expect(vocab.preTokenizer == "smollm")
        #expect(vocab.tokens.count == 49152)
        #expect(vocab.tokens[2] == "<|im_end|>")
        #expect(vocab.merges.count == 48900)
        #expect(vocab.eosTokenId == 2)
        #expect(try file.chatTemplate?.contains("<|im_start|>") == true)
    }
}
