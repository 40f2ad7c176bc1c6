import Foundation
import Testing
@testable import LlamaEngine

/// The Jinja subset itself: whitespace rules, scoping, expressions, filters, and the errors
/// for what it does not support.
@Suite struct ChatTemplateLanguageTests {
    static let messages: [ChatTemplate.Message] = [.init(role: "system", content: "S"), .init(role: "user", content: " u1 ")]

    func render(_ source: String, messages: [ChatTemplate.Message] = messages, generation: Bool = false) throws -> String {
        try ChatTemplate(source: source, bosToken: "<s>", eosToken: "</s>").render(messages: messages, addGenerationPrompt: generation)
    }

    @Test func blockTagsDropTheirNewlineAndIndentation() throws {
        // trim_blocks + lstrip_blocks, as Hugging Face and llama.cpp render templates.
        #expect(try render("{% for m in messages %}\n  {{ m.role }}\n  {% endfor %}\n") == "  system\n  user\n")
        #expect(try render("{%- for m in messages -%}\n  [{{- m.role -}}]  \n{%- endfor %}") == "[system][user]")
        #expect(try render("a {# note #} b\n{# whole line #}\nc") == "a  b\nc")
        // `+` turns the rules off for one tag.
        #expect(try render("{% if true +%}\n  {%+ if true %}x{% endif %}{% endif %}") == "\n  x")
    }

    @Test func loopVariablesAndNamespaceScoping() throws {
        let source = """
        {%- set ns = namespace(count=0, last='') -%}
        {%- set outer = 'kept' -%}
        {%- for m in messages -%}
        {%- set outer = 'loop-local' -%}
        {%- set ns.count = ns.count + 1 -%}
        {%- set ns.last = m.role -%}
        {{ loop.index }}/{{ loop.length }}{{ '^' if loop.first }}{{ '$' if loop.last }}{{ ',' if not loop.last }}
        {%- endfor -%}
        |{{ ns.count }} {{ ns.last }} {{ outer }}
        """
        #expect(try render(source) == "1/2^,2/2$|2 user kept")
    }

    @Test func expressionsFollowJinjaPrecedenceAndPythonSemantics() throws {
        #expect(try render("{{ 1 + 2 * 3 }} {{ (1 + 2) * 3 }} {{ 7 // 2 }} {{ -7 // 2 }} {{ 7 % 3 }} {{ 2 ** 3 ** 2 }}") == "7 9 3 -4 1 512")
        #expect(try render("{{ 'a' ~ 1 ~ none }} {{ 'x' * 3 }} {{ 1 == 1.0 }} {{ 'b' > 'a' }} {{ not 0 and 'y' or 'n' }}") == "a1None xxx True True y")
        #expect(try render("{{ messages[-1].content | trim }} {{ messages[1:] | length }} {{ 'abcdef'[1:4] }} {{ [1,2,3][::-1] }}") == "u1 1 bcd [3, 2, 1]")
        #expect(try render("{{ 'y' in 'xyz' }} {{ 3 not in [1, 2] }} {{ 'role' in messages[0] }} {{ missing is defined }} {{ messages is not none }}") == "True True True False True")
        #expect(try render("{{ 'yes' if messages | length > 1 else 'no' }} {{ 'x' if false }}|") == "yes |")
    }

    @Test func filtersAndMethods() throws {
        #expect(try render("{{ '  Hi  ' | trim }}|{{ 'ab' | upper }}|{{ missing | default('d') }}|{{ [3,1,2] | sort | join(',') }}|{{ messages | map(attribute='role') | join(' ') }}")
                == "Hi|AB|d|1,2,3|system user")
        #expect(try render("{{ messages | selectattr('role', 'equalto', 'user') | list | length }}|{{ {'b': 1, 'a': [true, none, 'é\"']} | tojson }}")
                == "1|{\"b\": 1, \"a\": [true, null, \"é\\\"\"]}")
        #expect(try render("{{ ['brave_search', 'code_interpreter'] | reject('equalto', 'code_interpreter') | join(', ') }}|{{ [0, 1, 2, 3] | select('odd') | list }}|{{ [0, '', 'x'] | select | list }}")
                == "brave_search|[1, 3]|['x']")
        #expect(try render("{{ ' a b '.strip().split(' ') }}|{{ 'Hello'.startswith('He') }}|{{ 'x-y'.replace('-', '+') }}|{% for k, v in {'k': 'v'}.items() %}{{ k }}={{ v }}{% endfor %}")
                == "['a', 'b']|True|x+y|k=v")
    }

    @Test func globalFunctions() throws {
        // Llama 3.1 style: the date comes from strftime_now when the host defines it.
        let source = """
        {%- if strftime_now is defined %}{% set date_string = strftime_now("%d %b %Y") %}{% else %}{% set date_string = "26 Jul 2024" %}{% endif -%}
        Today Date: {{ date_string }}|{% for i in range(1, 7, 2) %}{{ i }}{% endfor %}
        """
        let template = try ChatTemplate(source: source, bosToken: "", eosToken: "")
        let date = Date(timeIntervalSince1970: 1_764_504_000)  // 2025-11-30 12:00 UTC
        #expect(try template.render(messages: [], addGenerationPrompt: false, now: date).hasPrefix("Today Date: 30 Nov 2025|135"))
        #expect(throws: TemplateError(.unsupportedConstruct, "function 'cycler' is not supported", line: 1, column: 4)) {
            try ChatTemplate(source: "{{ cycler('a', 'b') }}", bosToken: "", eosToken: "")
        }
    }

    @Test func filterArgumentsOutsideTheSubsetAreErrors() throws {
        #expect(try render("{{ 'a-a-a' | replace('-', '+', 1) }} {{ 2.5 | round }} {{ 2.1 | round(method='ceil') }} {{ 'e\u{301}x' is string and 'e' in 'e\u{301}' }}")
                == "a+a-a 2.0 3.0 True")
        #expect(throws: TemplateError(.unsupportedConstruct, "argument 'attribute' of filter 'sort' is not supported", line: 1, column: 13)) {
            try render("{{ messages | sort(attribute='role') }}")
        }
        #expect(throws: TemplateError(.unsupportedConstruct, "filter 'trim' takes at most 1 arguments, got 2", line: 1, column: 8)) {
            try render("{{ 'x' | trim('a', 'b') }}")
        }
    }

    @Test func macros() throws {
        let source = """
        {%- macro turn(role, text, end='|') -%}<{{ role }}>{{ text | trim }}{{ end }}{%- endmacro -%}
        {%- for m in messages %}{{ turn(m.role, m.content) }}{% endfor %}{{ turn('x', 'y', end='.') }}
        """
        #expect(try render(source) == "<system>S|<user>u1|<x>y.")
        #expect(throws: TemplateError.self) { try render("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}") }
        #expect(throws: TemplateError.self) { try render("{% macro f(a) %}{% endmacro %}{{ f(1, 2) }}") }
    }

    @Test func unsupportedConstructsAreNamedWithTheirPosition() {
        #expect(throws: TemplateError(.unsupportedConstruct, "statement 'call' is not supported", line: 2, column: 4)) {
            try ChatTemplate(source: "ok\n{% call greet(name) %}hi{% endcall %}", bosToken: "", eosToken: "")
        }
        #expect(throws: TemplateError(.unsupportedConstruct, "filter 'wordwrap' is not supported", line: 1, column: 9)) {
            try ChatTemplate(source: "{{ text | wordwrap }}", bosToken: "", eosToken: "")
        }
        #expect(throws: TemplateError(.syntax, "'if' is not closed with 'endif'", line: 1, column: 4)) {
            try ChatTemplate(source: "{% if x %}never closed", bosToken: "", eosToken: "")
        }
        #expect(throws: TemplateError(.syntax, "tag is not closed with }}", line: 1, column: 1)) {
            try ChatTemplate(source: "{{ x ", bosToken: "", eosToken: "")
        }
        #expect(throws: TemplateError(.syntax, "the chat template is empty")) {
            try ChatTemplate(source: "  \n", bosToken: "", eosToken: "")
        }
    }

    @Test func evaluationErrorsNameTheProblem() {
        #expect(throws: TemplateError(.evaluation, "'nothing' is undefined (reading 'role')", line: 1, column: 11)) {
            try render("{{ nothing.role }}")
        }
        #expect(throws: TemplateError(.evaluation, "unsupported operand types for +: string and integer", line: 1, column: 8)) {
            try render("{{ 'a' + 1 }}")
        }
    }
}
