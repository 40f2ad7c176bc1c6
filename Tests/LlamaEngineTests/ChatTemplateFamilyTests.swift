import Foundation
import Testing
@testable import LlamaEngine

/// Templates of other model families, written here from their public `chat_template` text
/// (the template is data); the expected prompts follow from what each template says.
@Suite struct ChatTemplateFamilyTests {
    static let conversation: [ChatTemplate.Message] = [
        .init(role: "system", content: "You are a helpful assistant"),
        .init(role: "user", content: "Hello"),
        .init(role: "assistant", content: "  Hi there  "),
        .init(role: "user", content: "Who are you?"),
    ]

    /// Meta-Llama-3-8B-Instruct.
    static let llama3 = #"{% set loop_messages = messages %}{% for message in loop_messages %}{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}"#

    @Test func llama3() throws {
        let template = try ChatTemplate(source: Self.llama3, bosToken: "<|begin_of_text|>", eosToken: "<|eot_id|>")
        let expected = "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are a helpful assistant<|eot_id|>"
            + "<|start_header_id|>user<|end_header_id|>\n\nHello<|eot_id|>"
            + "<|start_header_id|>assistant<|end_header_id|>\n\nHi there<|eot_id|>"
            + "<|start_header_id|>user<|end_header_id|>\n\nWho are you?<|eot_id|>"
            + "<|start_header_id|>assistant<|end_header_id|>\n\n"
        #expect(try template.render(messages: Self.conversation, addGenerationPrompt: true) == expected)
    }

    /// Llama-3.2-Instruct (date from strftime_now, system prompt after the date lines, tool
    /// branches left untaken without tools).
    static let llama32 = #"""
    {{- bos_token }}
    {%- if custom_tools is defined %}
        {%- set tools = custom_tools %}
    {%- endif %}
    {%- if not tools_in_user_message is defined %}
        {%- set tools_in_user_message = true %}
    {%- endif %}
    {%- if not date_string is defined %}
        {%- if strftime_now is defined %}
            {%- set date_string = strftime_now("%d %b %Y") %}
        {%- else %}
            {%- set date_string = "26 Jul 2024" %}
        {%- endif %}
    {%- endif %}
    {%- if not tools is defined %}
        {%- set tools = none %}
    {%- endif %}

    {#- This block extracts the system message, so we can slot it into the right place. #}
    {%- if messages[0]['role'] == 'system' %}
        {%- set system_message = messages[0]['content']|trim %}
        {%- set messages = messages[1:] %}
    {%- else %}
        {%- set system_message = "" %}
    {%- endif %}

    {#- System message #}
    {{- "<|start_header_id|>system<|end_header_id|>\n\n" }}
    {%- if tools is not none %}
        {{- "Environment: ipython\n" }}
    {%- endif %}
    {{- "Cutting Knowledge Date: December 2023\n" }}
    {{- "Today Date: " + date_string + "\n\n" }}
    {%- if tools is not none and not tools_in_user_message %}
        {{- "You have access to the following functions. To call a function, please respond with JSON for a function call." }}
        {{- 'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.' }}
        {{- "Do not use variables.\n\n" }}
        {%- for t in tools %}
            {{- t | tojson(indent=4) }}
            {{- "\n\n" }}
        {%- endfor %}
    {%- endif %}
    {{- system_message }}
    {{- "<|eot_id|>" }}

    {#- Custom tools are passed in a user message with some extra guidance #}
    {%- if tools_in_user_message and not tools is none %}
        {#- Extract the first user message so we can plug it in here #}
        {%- if messages | length != 0 %}
            {%- set first_user_message = messages[0]['content']|trim %}
            {%- set messages = messages[1:] %}
        {%- else %}
            {{- raise_exception("Cannot put tools in the first user message when there's no first user message!") }}
    {%- endif %}
        {{- '<|start_header_id|>user<|end_header_id|>\n\n' -}}
        {{- "Given the following functions, please respond with a JSON for a function call " }}
        {{- "with its proper arguments that best answers the given prompt.\n\n" }}
        {{- 'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.' }}
        {{- "Do not use variables.\n\n" }}
        {%- for t in tools %}
            {{- t | tojson(indent=4) }}
            {{- "\n\n" }}
        {%- endfor %}
        {{- first_user_message + "<|eot_id|>"}}
    {%- endif %}

    {%- for message in messages %}
        {%- if not (message.role == 'ipython' or message.role == 'tool' or 'tool_calls' in message) %}
            {{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' }}
        {%- elif 'tool_calls' in message %}
            {%- if not message.tool_calls|length == 1 %}
                {{- raise_exception("This model only supports single tool-calls at once!") }}
            {%- endif %}
            {%- set tool_call = message.tool_calls[0].function %}
            {{- '<|start_header_id|>assistant<|end_header_id|>\n\n' -}}
            {{- '{"name": "' + tool_call.name + '", ' }}
            {{- '"parameters": ' }}
            {{- tool_call.arguments | tojson }}
            {{- "}" }}
            {{- "<|eot_id|>" }}
        {%- elif message.role == "tool" or message.role == "ipython" %}
            {{- "<|start_header_id|>ipython<|end_header_id|>\n\n" }}
            {%- if message.content is mapping or message.content is iterable %}
                {{- message.content | tojson }}
            {%- else %}
                {{- message.content }}
            {%- endif %}
            {{- "<|eot_id|>" }}
        {%- endif %}
    {%- endfor %}
    {%- if add_generation_prompt %}
        {{- '<|start_header_id|>assistant<|end_header_id|>\n\n' }}
    {%- endif %}

    """#

    @Test func llama32() throws {
        let template = try ChatTemplate(source: Self.llama32, bosToken: "<|begin_of_text|>", eosToken: "<|eot_id|>")
        let date = Date(timeIntervalSince1970: 1_764_504_000)  // 2025-11-30 12:00 UTC
        let expected = "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
            + "Cutting Knowledge Date: December 2023\nToday Date: 30 Nov 2025\n\nYou are a helpful assistant<|eot_id|>"
            + "<|start_header_id|>user<|end_header_id|>\n\nHello<|eot_id|>"
            + "<|start_header_id|>assistant<|end_header_id|>\n\nHi there<|eot_id|>"
            + "<|start_header_id|>user<|end_header_id|>\n\nWho are you?<|eot_id|>"
            + "<|start_header_id|>assistant<|end_header_id|>\n\n"
        #expect(try template.render(messages: Self.conversation, addGenerationPrompt: true, now: date) == expected)
        // A tool result's text is a string, which Jinja counts as iterable: it is JSON-quoted.
        let tool = try template.render(messages: [.init(role: "user", content: "Hi"), .init(role: "tool", content: "sunny")],
                                       addGenerationPrompt: false, now: date)
        #expect(tool.hasSuffix("<|start_header_id|>ipython<|end_header_id|>\n\n\"sunny\"<|eot_id|>"))
    }

    /// Qwen2.5-Instruct (ChatML with a default system prompt and a tool-calling branch).
    static let qwen25 = #"""
    {%- if tools %}
        {{- '<|im_start|>system\n' }}
        {%- if messages[0]['role'] == 'system' %}
            {{- messages[0]['content'] }}
        {%- else %}
            {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
        {%- endif %}
        {{- "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>" }}
        {%- for tool in tools %}
            {{- "\n" }}
            {{- tool | tojson }}
        {%- endfor %}
        {{- "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n" }}
    {%- else %}
        {%- if messages[0]['role'] == 'system' %}
            {{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}
        {%- else %}
            {{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}
        {%- endif %}
    {%- endif %}
    {%- for message in messages %}
        {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}
            {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
        {%- elif message.role == "assistant" %}
            {{- '<|im_start|>' + message.role }}
            {%- if message.content %}
                {{- '\n' + message.content }}
            {%- endif %}
            {%- for tool_call in message.tool_calls %}
                {%- if tool_call.function is defined %}
                    {%- set tool_call = tool_call.function %}
                {%- endif %}
                {{- '\n<tool_call>\n{"name": "' }}
                {{- tool_call.name }}
                {{- '", "arguments": ' }}
                {{- tool_call.arguments | tojson }}
                {{- '}\n</tool_call>' }}
            {%- endfor %}
            {{- '<|im_end|>\n' }}
        {%- elif message.role == "tool" %}
            {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
                {{- '<|im_start|>user' }}
            {%- endif %}
            {{- '\n<tool_response>\n' }}
            {{- message.content }}
            {{- '\n</tool_response>' }}
            {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
                {{- '<|im_end|>\n' }}
            {%- endif %}
        {%- endif %}
    {%- endfor %}
    {%- if add_generation_prompt %}
        {{- '<|im_start|>assistant\n' }}
    {%- endif %}

    """#

    @Test func qwen25WithAndWithoutSystemPrompt() throws {
        let template = try ChatTemplate(source: Self.qwen25, bosToken: "", eosToken: "<|im_end|>")
        #expect(try template.render(messages: [.init(role: "user", content: "Hello")], addGenerationPrompt: true)
                == "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n"
                + "<|im_start|>user\nHello<|im_end|>\n<|im_start|>assistant\n")
        #expect(try template.render(messages: Self.conversation, addGenerationPrompt: false)
                == "<|im_start|>system\nYou are a helpful assistant<|im_end|>\n<|im_start|>user\nHello<|im_end|>\n"
                + "<|im_start|>assistant\n  Hi there  <|im_end|>\n<|im_start|>user\nWho are you?<|im_end|>\n")
        // Tool results: consecutive tool messages share one user turn.
        let tools: [ChatTemplate.Message] = [
            .init(role: "user", content: "Weather?"), .init(role: "tool", content: "sunny"), .init(role: "tool", content: "warm"),
        ]
        #expect(try template.render(messages: tools, addGenerationPrompt: false)
                == "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n"
                + "<|im_start|>user\nWeather?<|im_end|>\n"
                + "<|im_start|>user\n<tool_response>\nsunny\n</tool_response>\n<tool_response>\nwarm\n</tool_response><|im_end|>\n")
    }

    /// gemma-2-2b-it.
    static let gemma2 = #"{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{% if (message['role'] == 'assistant') %}{% set role = 'model' %}{% else %}{% set role = message['role'] %}{% endif %}{{ '<start_of_turn>' + role + '\n' + message['content'] | trim + '<end_of_turn>\n' }}{% endfor %}{% if add_generation_prompt %}{{'<start_of_turn>model\n'}}{% endif %}"#

    @Test func gemma2RendersTurnsAndRejectsWhatItForbids() throws {
        let template = try ChatTemplate(source: Self.gemma2, bosToken: "<bos>", eosToken: "<eos>")
        #expect(try template.render(messages: Array(Self.conversation.dropFirst()), addGenerationPrompt: true)
                == "<bos><start_of_turn>user\nHello<end_of_turn>\n<start_of_turn>model\nHi there<end_of_turn>\n"
                + "<start_of_turn>user\nWho are you?<end_of_turn>\n<start_of_turn>model\n")
        #expect(throws: TemplateError(.raisedByTemplate, "System role not supported", line: 1, column: 59)) {
            try template.render(messages: Self.conversation, addGenerationPrompt: true)
        }
        do {
            _ = try template.render(messages: [.init(role: "assistant", content: "x")], addGenerationPrompt: false)
            Issue.record("alternation was not enforced")
        } catch let error as TemplateError {
            #expect(error.code == .raisedByTemplate)
            #expect(error.message == "Conversation roles must alternate user/assistant/user/assistant/...")
        }
    }

    /// gemma-3-*-it: the system prompt is folded into the first user turn.
    static let gemma3 = #"""
    {{ bos_token }}
    {%- if messages[0]['role'] == 'system' -%}
        {%- if messages[0]['content'] is string -%}
            {%- set first_user_prefix = messages[0]['content'] + '\n\n' -%}
        {%- else -%}
            {%- set first_user_prefix = messages[0]['content'][0]['text'] + '\n\n' -%}
        {%- endif -%}
        {%- set loop_messages = messages[1:] -%}
    {%- else -%}
        {%- set first_user_prefix = "" -%}
        {%- set loop_messages = messages -%}
    {%- endif -%}
    {%- for message in loop_messages -%}
        {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}
            {{ raise_exception("Conversation roles must alternate user/assistant/user/assistant/...") }}
        {%- endif -%}
        {%- if (message['role'] == 'assistant') -%}
            {%- set role = "model" -%}
        {%- else -%}
            {%- set role = message['role'] -%}
        {%- endif -%}
        {{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else "") }}
        {%- if message['content'] is string -%}
            {{ message['content'] | trim }}
        {%- elif message['content'] is iterable -%}
            {%- for item in message['content'] -%}
                {%- if item['type'] == 'image' -%}
                    {{ '<start_of_image>' }}
                {%- elif item['type'] == 'text' -%}
                    {{ item['text'] | trim }}
                {%- endif -%}
            {%- endfor -%}
        {%- else -%}
            {{ raise_exception("Invalid content type") }}
        {%- endif -%}
        {{ '<end_of_turn>\n' }}
    {%- endfor -%}
    {%- if add_generation_prompt -%}
        {{'<start_of_turn>model\n'}}
    {%- endif -%}

    """#

    @Test func gemma3FoldsTheSystemPromptIntoTheFirstTurn() throws {
        let template = try ChatTemplate(source: Self.gemma3, bosToken: "<bos>", eosToken: "<eos>")
        #expect(try template.render(messages: Self.conversation, addGenerationPrompt: true)
                == "<bos><start_of_turn>user\nYou are a helpful assistant\n\nHello<end_of_turn>\n"
                + "<start_of_turn>model\nHi there<end_of_turn>\n<start_of_turn>user\nWho are you?<end_of_turn>\n"
                + "<start_of_turn>model\n")
        #expect(try template.render(messages: [.init(role: "user", content: "Hi")], addGenerationPrompt: false)
                == "<bos><start_of_turn>user\nHi<end_of_turn>\n")
    }
}
