import Testing
@testable import LlamaEngine

/// Which bytes of a rendered template came from message content: exact through concatenation,
/// output, blocks and macros; the whole result for anything else computed from content.
@Suite struct ChatTemplateContentMarkingTests {
    static let messages: [ChatTemplate.Message] = [.init(role: "system", content: "S"), .init(role: "user", content: " u1 ")]

    func render(_ source: String) throws -> ChatTemplate.Rendering {
        try ChatTemplate(source: source, bosToken: "<s>", eosToken: "</s>")
            .renderMarkingContent(messages: Self.messages, addGenerationPrompt: false)
    }

    /// The marked pieces of `rendering`'s text.
    func marked(_ rendering: ChatTemplate.Rendering) -> [String] {
        let bytes = Array(rendering.text.utf8)
        return rendering.contentRanges.map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test func concatenationAndOutputKeepExactRanges() throws {
        let joined = try render("{{ bos_token + messages[1].content + eos_token }}|{{ messages[0].content ~ '!' }}")
        #expect(joined.text == "<s> u1 </s>|S!")
        #expect(joined.contentRanges == [3..<7, 12..<13])
        // Adjacent content pieces are one range.
        #expect(try render("{{ messages[0].content }}{{ messages[1].content }}").contentRanges == [0..<5])
    }

    @Test func rolesLiteralsAndSpecialTokenVariablesAreTemplateText() throws {
        let rendering = try render("{% for m in messages %}<|{{ m.role }}|>{{ bos_token }}{{ loop.index }}{% endfor %}")
        #expect(rendering.text == "<|system|><s>1<|user|><s>2")
        #expect(rendering.contentRanges.isEmpty)
    }

    @Test func blocksMacrosAndJoinsKeepExactRanges() throws {
        let block = try render("{% set x %}[{{ messages[0].content }}]{% endset %}{{ x }}{{ x }}")
        #expect(block.text == "[S][S]")
        #expect(marked(block) == ["S", "S"])
        #expect(block.contentRanges == [1..<2, 4..<5])
        let macro = try render("{% macro turn(m) %}<{{ m.content }}>{% endmacro %}{% for m in messages %}{{ turn(m) }}{% endfor %}")
        #expect(macro.text == "<S>< u1 >")
        #expect(marked(macro) == ["S", " u1 "])
        let joined = try render("{{ messages | map(attribute='content') | join('<sep>') }}")
        #expect(joined.text == "S<sep> u1 ")
        #expect(marked(joined) == ["S", " u1 "])
    }

    /// Filters, methods and slices do not keep positions: what they make from content is content
    /// as a whole, even the template text mixed into it, so content never passes as template text.
    @Test func anythingComputedFromContentIsContentAsAWhole() throws {
        let trimmed = try render("<{{ messages[1].content | trim }}>{{ messages[1].content.strip() }}")
        #expect(trimmed.text == "<u1>u1")
        #expect(marked(trimmed) == ["u1", "u1"])
        let upper = try render("{{ ('<s>' + messages[0].content) | upper }}")
        #expect(upper.text == "<S>S")
        #expect(marked(upper) == ["<S>S"])
        let pieces = try render("{{ messages[1].content[1:3] }}|{{ messages[1].content.split('1')[0] }}|{{ messages[0].content | tojson }}")
        #expect(pieces.text == "u1| u|\"S\"")
        #expect(marked(pieces) == ["u1", " u", "\"S\""])
        let listed = try render("{{ messages[0] }}")
        #expect(listed.text == "{'role': 'system', 'content': 'S'}")
        #expect(marked(listed) == [listed.text])
        // Computed from template text only: not content.
        #expect(try render("{{ 'abc' | upper }}{{ messages[0].role | upper }}").contentRanges.isEmpty)
    }

    /// Dictionary keys are plain strings read back as template text, so content cannot become one.
    @Test func dictionaryKeysFromContentAreAnError() throws {
        #expect(try render("{% set d = {'k': messages[0].content} %}{% for k, v in d.items() %}{{ k }}={{ v }}{% endfor %}").contentRanges == [2..<3])
        do {
            _ = try render("{% set d = {messages[0].content: 1} %}{% for k in d %}{{ k }}{% endfor %}")
            Issue.record("a dictionary key made from content was accepted")
        } catch let error as TemplateError {
            #expect(error.code == .unsupportedConstruct)
            #expect(error.description.contains("dictionary keys made from message content"), "\(error)")
        }
    }

    @Test func renderIsTheTextOfTheMarkedRendering() throws {
        let source = "{% for m in messages %}{{ '<|' + m.role + '|>' + m.content | trim }}{% endfor %}"
        let template = try ChatTemplate(source: source, bosToken: "<s>", eosToken: "</s>")
        #expect(try template.render(messages: Self.messages, addGenerationPrompt: false)
                == template.renderMarkingContent(messages: Self.messages, addGenerationPrompt: false).text)
    }
}
