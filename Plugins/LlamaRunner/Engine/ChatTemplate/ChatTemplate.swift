import Foundation

/// A model's chat template (`tokenizer.chat_template`), rendered from its own Jinja text.
///
/// The template is parsed once; anything outside the supported Jinja subset fails here with a
/// `TemplateError` naming the construct and its line and column, never with a guessed format.
/// Rendering passes what Hugging Face passes: `messages`, `add_generation_prompt`, `bos_token`,
/// `eos_token` (and `tools` left undefined).
///
/// Pipeline: `TemplateLexer` (text, tags, whitespace control) → `TemplateParser` (nodes and
/// expressions, `TemplateSyntax`) → `TemplateInterpreter` with `TemplateValue`s and
/// `TemplateFilters`; strings are `TemplateString`s, which remember the bytes that came from
/// message content so the tokenizer can keep control tokens typed there as plain text.
public struct ChatTemplate: Sendable {
    public struct Message: Sendable, Equatable {
        public var role: String
        public var content: String

        public init(role: String, content: String) {
            self.role = role
            self.content = content
        }
    }

    public let source: String
    public let bosToken: String
    public let eosToken: String
    private let nodes: UncheckedNodes

    /// Parsed nodes are immutable after init; the box only tells the compiler so.
    private struct UncheckedNodes: @unchecked Sendable {
        let nodes: [TemplateNode]
    }

    public init(source: String, bosToken: String, eosToken: String) throws {
        guard !source.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw TemplateError(.syntax, "the chat template is empty")
        }
        var parser = try TemplateParser(source: source)
        nodes = UncheckedNodes(nodes: try parser.parse())
        self.source = source
        self.bosToken = bosToken
        self.eosToken = eosToken
    }

    /// A rendered prompt and where message content sits in it.
    public struct Rendering: Sendable, Equatable {
        public let text: String
        /// UTF-8 offsets into `text` of every piece copied from a message's content (sorted,
        /// disjoint). Control tokens written there are the user's text, not the template's.
        public let contentRanges: [Range<Int>]
    }

    /// The prompt text for `messages`; with `addGenerationPrompt` it ends where the assistant's
    /// reply starts. Throws when the template rejects the conversation (`raise_exception`).
    public func render(messages: [Message], addGenerationPrompt: Bool, now: Date = Date()) throws -> String {
        try renderMarkingContent(messages: messages, addGenerationPrompt: addGenerationPrompt, now: now).text
    }

    /// `render`, also telling which parts of the text came from message content (for
    /// `Tokenizer.encodeChatPrompt`, which reads control tokens only outside them). Roles and
    /// the special token variables count as the template's own text.
    public func renderMarkingContent(messages: [Message], addGenerationPrompt: Bool, now: Date = Date()) throws -> Rendering {
        let messageValues = messages.map { message in
            TemplateValue.object(TemplateObject([
                ("role", .string(TemplateString(message.role))), ("content", .string(TemplateString(content: message.content))),
            ]))
        }
        let variables: [String: TemplateValue] = [
            "messages": .array(messageValues),
            "add_generation_prompt": .boolean(addGenerationPrompt),
            "bos_token": .string(TemplateString(bosToken)),
            "eos_token": .string(TemplateString(eosToken)),
        ]
        let output = try TemplateInterpreter.render(nodes.nodes, source: Array(source.utf8), variables: variables, now: now)
        return Rendering(text: output.text, contentRanges: output.contentRanges)
    }
}
