import Foundation
import Testing
@testable import LlamaEngine

/// The default model's own template against llama.cpp's `/apply-template` output.
@Suite struct ChatTemplateReferenceTests {
    static let template: Result<ChatTemplate, any Error> = Result {
        let file = try GGUFFile(path: TestPaths.defaultModel)
        return try ChatTemplate(gguf: file, tokenizer: Tokenizer(gguf: file))
    }

    @Test func specialTokenTextsComeFromTheVocabulary() throws {
        let template = try Self.template.get()
        #expect(template.bosToken == "<|im_start|>")
        #expect(template.eosToken == "<|im_end|>")
    }

    @Test func everyGreedyLineRendersExactlyAsLlamaCpp() throws {
        let template = try Self.template.get()
        let lines = try TokenizerReferenceTests.lines("greedy.jsonl", as: TokenizerReferenceTests.GreedyLine.self)
        #expect(lines.count == 10)
        for line in lines {
            let messages = line.messages.map { ChatTemplate.Message(role: $0.role, content: $0.content) }
            #expect(try template.render(messages: messages, addGenerationPrompt: true) == line.rendered, "\(line.name)")
        }
    }

    @Test func insertsTheDefaultSystemPromptOnlyWhenNoneIsGiven() throws {
        let template = try Self.template.get()
        let withoutSystem = try template.render(messages: [.init(role: "user", content: "Hi")], addGenerationPrompt: false)
        #expect(withoutSystem == "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n")
        let withSystem = try template.render(
            messages: [.init(role: "system", content: "Be brief."), .init(role: "user", content: "Hi")], addGenerationPrompt: true)
        #expect(withSystem == "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n")
    }
}
