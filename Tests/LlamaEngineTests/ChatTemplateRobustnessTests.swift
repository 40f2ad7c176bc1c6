import Foundation
import Testing
@testable import LlamaEngine

/// A template comes from a model file, so it is untrusted input: damaged or hostile templates
/// must end in a `TemplateError`, never a crash, a hang or unbounded memory.
@Suite struct ChatTemplateRobustnessTests {
    static let sources = [
        ChatTemplateFamilyTests.llama3, ChatTemplateFamilyTests.qwen25, ChatTemplateFamilyTests.gemma2,
        ChatTemplateFamilyTests.gemma3,
    ]

    @Test func mutatedTemplatesFailCleanlyOrRender() throws {
        var generator = SeededGenerator(seed: 7)
        let alphabet = Array("{}%#-+()[]'\".,|~=!<>*/ \nabcifendforsetnotinis0129")
        var rendered = 0
        var rejected = 0
        for iteration in 0..<3_000 {
            var characters = Array(Self.sources[iteration % Self.sources.count])
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(characters.count + 1))
                switch generator.next() % 4 {
                case 0 where position < characters.count: characters.remove(at: position)
                case 1: characters.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                case 2 where position < characters.count: characters[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                default: characters.removeLast(min(characters.count, Int(generator.next() % 40)))
                }
            }
            do {
                let template = try ChatTemplate(source: String(characters), bosToken: "<s>", eosToken: "</s>")
                _ = try template.render(messages: ChatTemplateFamilyTests.conversation, addGenerationPrompt: true)
                rendered += 1
            } catch is TemplateError {
                rejected += 1
            }
        }
        // Both outcomes occur: the mutations are neither all harmless nor all fatal.
        #expect(rendered > 100)
        #expect(rejected > 100)
    }

    @Test func runawayTemplatesAreStopped() {
        let deep = String(repeating: "(", count: 500) + "1" + String(repeating: ")", count: 500)
        #expect(throws: TemplateError.self) { try ChatTemplate(source: "{{ \(deep) }}", bosToken: "", eosToken: "") }
        let chain = (0..<500).map { _ in "1" }.joined(separator: " + ")
        #expect(throws: TemplateError.self) { try ChatTemplate(source: "{{ \(chain) }}", bosToken: "", eosToken: "") }
        let nested = String(repeating: "{% if true %}", count: 200) + String(repeating: "{% endif %}", count: 200)
        #expect(throws: TemplateError.self) { try ChatTemplate(source: nested, bosToken: "", eosToken: "") }
        for source in ["{{ range(100000000000) | length }}", "{{ 'x' * 100000000000 }}", "{{ 2 ** 64 }}",
                       "{{ 9223372036854775807 + 1 }}", "{{ 1 // 0 }}", "{{ (10.0 ** 400) | int }}"] {
            #expect(throws: TemplateError.self, "\(source)") {
                try ChatTemplate(source: source, bosToken: "", eosToken: "").render(messages: [], addGenerationPrompt: false)
            }
        }
    }
}

extension ChatTemplateRobustnessTests {
    /// The deepest template the limits allow (recursive macro inside the deepest blocks and
    /// expressions) renders or fails cleanly; it must not exhaust the stack.
    @Test func deepestAllowedNestingDoesNotExhaustTheStack() throws {
        let blocks = TemplateParser.maximumNesting - 2
        let expression = String(repeating: "(", count: 25) + "f(n + 1)" + String(repeating: ")", count: 25)
        let body = String(repeating: "{% if true %}", count: blocks) + "{{ \(expression) if n < 100 else '' }}"
            + String(repeating: "{% endif %}", count: blocks)
        let source = "{% macro f(n) %}" + body + "{% endmacro %}{{ f(0) }}"
        let template = try ChatTemplate(source: source, bosToken: "", eosToken: "")
        do {
            _ = try template.render(messages: [], addGenerationPrompt: false)
            Issue.record("runaway recursion was not stopped")
        } catch let error as TemplateError {
            #expect(error.message.hasPrefix("macro calls nested deeper than \(TemplateInterpreter.maximumMacroDepth)"))
        }
    }
}
