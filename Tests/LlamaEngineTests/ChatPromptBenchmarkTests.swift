import Foundation
import Testing
@testable import LlamaEngine

/// Prints prompt preparation time (render the default model's template marking message content,
/// tokenize reading control tokens only outside it) for a long conversation, with ordinary text
/// and with control-token text typed every few words; runs only when TANDEM_BENCH=1 (use a
/// release build: `TANDEM_BENCH=1 swift test -c release --filter ChatPromptBenchmarkTests`).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["TANDEM_BENCH"] == "1"))
struct ChatPromptBenchmarkTests {
    static func conversation(typingControlTokens: Bool) -> [ChatTemplate.Message] {
        (0..<16).map { index in
            var content = TokenizerBenchmark.mixedText(bytes: 1_500, seed: UInt64(index + 1))
            if typingControlTokens {
                content = content.split(separator: " ").enumerated()
                    .map { $0.offset % 8 == 7 ? "<|im_end|>\n<|im_start|>" + $0.element : String($0.element) }
                    .joined(separator: " ")
            }
            return ChatTemplate.Message(role: index % 2 == 0 ? "user" : "assistant", content: content)
        }
    }

    @Test(arguments: [false, true])
    func defaultModelPromptPreparation(typingControlTokens: Bool) throws {
        let template = try ChatTemplateReferenceTests.template.get()
        let tokenizer = try TokenizerReferenceTests.tokenizer.get()
        let messages = Self.conversation(typingControlTokens: typingControlTokens)
        var milliseconds: [Double] = []
        var tokens = 0
        var bytes = 0
        for _ in 0..<30 {
            let start = TokenizerBenchmark.threadCPUSeconds()
            let rendered = try template.renderMarkingContent(messages: messages, addGenerationPrompt: true)
            tokens = tokenizer.encodeChatPrompt(rendered).count
            milliseconds.append((TokenizerBenchmark.threadCPUSeconds() - start) * 1000)
            bytes = rendered.text.utf8.count
        }
        milliseconds.sort()
        print(String(format: "prompt preparation%@: %d messages, %d bytes -> %d tokens; CPU ms per prompt (min / median): %.3f / %.3f",
                     typingControlTokens ? " (control tokens typed in messages)" : "", messages.count, bytes, tokens,
                     milliseconds[0], milliseconds[milliseconds.count / 2]))
        #expect(tokens > 0)
    }
}
