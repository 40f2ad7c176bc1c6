import Foundation
import GuidedJSON
import JSONModel
import LlamaEngine
import TandemPluginKit

/// A request's conversation as prompt tokens, rendered by the model's own chat template the way
/// llama.cpp does and `tandem-llama complete --chat` does (the engine's `encodeChatPrompt`):
/// messages in order, the generation prompt appended, the text tokenized with the template's
/// special tokens parsed, BOS added when the vocabulary asks for it but never twice.
///
/// Control tokens come only from the template: text of any message (and the tool instruction
/// added to the system message) is tokenized as plain text, so `<|im_end|>` typed by a user or
/// returned by a tool cannot end a turn or open a forged one.
///
/// A base model (a file without `tokenizer.chat_template`, e.g. Gemma 3 270M) has no turns: its
/// prompt is the messages' text in order, one blank line apart, tokenized as plain text with BOS,
/// and the model continues it (a caller few-shot prompts it, Sources/QuoteLibrary/README.md).
///
/// Tools: the declarations become a system instruction (appended to the conversation's system
/// message, or a system message of its own) describing each tool and the one-line call format
/// `{"name": ..., "arguments": {...}}`. An assistant turn that called tools is rendered with its
/// calls in that format; a tool's output is a message with the role `tool`.
struct ConversationPrompt {
    let text: String
    let tokens: [Int32]

    init(_ request: BackendRequest, on loaded: LoadedLlama) throws(BackendFailure) {
        var messages = request.messages.map(Self.templateMessage)
        if !request.tools.isEmpty {
            let instruction = Self.toolInstruction(request.tools)
            if let first = messages.first, first.role == "system" {
                messages[0].content += "\n\n" + instruction
            } else {
                messages.insert(ChatTemplate.Message(role: "system", content: instruction), at: 0)
            }
        }
        guard let template = loaded.template else {
            text = messages.map(\.content).joined(separator: "\n\n")
            tokens = loaded.tokenizer.encode(text, addSpecial: true, parseSpecial: false)
            return
        }
        let rendered: ChatTemplate.Rendering
        do {
            rendered = try template.renderMarkingContent(messages: messages, addGenerationPrompt: true)
        } catch {
            throw BackendFailure(.invalidArgument, "the model's chat template rejected the conversation: \(error)")
        }
        text = rendered.text
        // The engine's rule, shared with `tandem-llama complete --chat`.
        tokens = loaded.tokenizer.encodeChatPrompt(rendered)
    }

    private static func templateMessage(_ message: Message) -> ChatTemplate.Message {
        var content = message.content
        if message.role == .assistant, !message.toolCalls.isEmpty {
            let calls = message.toolCalls.map(ToolCallText.document).joined(separator: "\n")
            content = content.isEmpty ? calls : content + "\n" + calls
        }
        return ChatTemplate.Message(role: message.role.rawValue, content: content)
    }

    static func toolInstruction(_ tools: [ToolDeclaration]) -> String {
        var lines = ["You can call tools. To call one, answer with only a JSON object {\"name\": tool name, \"arguments\": {...}}. Tools:"]
        for tool in tools {
            let description = tool.description.isEmpty ? "" : ": \(tool.description)"
            lines.append("- \(tool.name)\(description). Arguments: \(tool.parametersSchema)")
        }
        return lines.joined(separator: "\n")
    }
}

/// The one-line text of a tool call, as the model writes it when guided.
enum ToolCallText {
    static func document(_ call: ToolCall) -> String {
        "{\"name\":\(JSONValue.string(call.name).jsonText),\"arguments\":\(call.argumentsJSON)}"
    }
}
