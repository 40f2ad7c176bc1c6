import QuoteLibrary
import Tandem

/// The `ask` agent (README "The quote library"): a routed model with exactly the three read-only
/// `LibraryTools` (catalog search, saved-quote search, streak status) over a read-only store.
/// Whatever the question says, the only effects a tool call can have are those three reads: the
/// tools refuse a writable store, validate and bound their arguments, and bound their output; the
/// agent also bounds the number of rounds, of calls and the total tool output it passes back.
public struct LibraryAgent: Sendable {
    let call: ModelCall
    let tools: LibraryTools

    public static let maximumQuestionCharacters = 1000
    public static let maximumRounds = 4
    public static let maximumToolCalls = 8
    public static let maximumTotalToolOutput = 8000
    /// Each turn's answer is bounded too: a small model may otherwise ramble to its context's end.
    public static let maximumAnswerTokens = 300

    static let instructions = """
        You help someone with their quote library. Use the tools to look up curated quotes by mood, \
        category or theme, the person's saved quotes, or their daily streak, then answer briefly. \
        The tools only read; you cannot change the library.
        """

    /// One executed tool call, for the transcript shown with `--json`.
    public struct ToolUse: Codable, Sendable {
        public let name: String
        public let arguments: String
        public let output: String
        public let isError: Bool
    }

    public struct Answer: Codable, Sendable {
        public let text: String
        public let servedBy: String
        public let modelVersion: String
        public let toolUses: [ToolUse]
    }

    public init(model: HybridModel, tools: LibraryTools) {
        call = ModelCall(model: model)
        self.tools = tools
    }

    public func ask(_ question: String) async throws -> Answer {
        guard question.count <= Self.maximumQuestionCharacters else {
            throw TandemError(.invalidOptions, "the question has \(question.count) characters; at most \(Self.maximumQuestionCharacters)")
        }
        let declarations = LibraryTools.definitions.map {
            ToolDeclaration(name: $0.name, description: $0.description, parametersSchema: $0.parametersSchema)
        }
        var messages: [Message] = [.system(Self.instructions), .user(question)]
        var uses: [ToolUse] = []
        var outputBudget = Self.maximumTotalToolOutput
        for round in 0...Self.maximumRounds {
            // The last round offers no tools, so the model has to answer in words.
            let offered = round < Self.maximumRounds && uses.count < Self.maximumToolCalls ? declarations : []
            let options = RequestOptions.hybrid(cloud: GenerationConfig(maxOutputTokens: Self.maximumAnswerTokens),
                                                local: GenerationOptions(maximumResponseTokens: Self.maximumAnswerTokens))
            let output = try await call.run(HybridRequest(messages: messages, tools: offered, options: options))
            guard !output.toolCalls.isEmpty, !offered.isEmpty else {
                return Answer(text: output.text, servedBy: output.servedBy, modelVersion: output.modelVersion, toolUses: uses)
            }
            messages.append(.assistant(output.text, toolCalls: output.toolCalls))
            for toolCall in output.toolCalls {
                let answer: LibraryTools.Answer
                if uses.count >= Self.maximumToolCalls {
                    answer = .error("tool call limit of \(Self.maximumToolCalls) reached; answer with what you have")
                } else {
                    answer = tools.call(toolCall.name, arguments: toolCall.argumentsJSON)
                }
                var (text, isError): (String, Bool) = switch answer {
                case .output(let text): (text, false)
                case .error(let message): (message, true)
                }
                if text.count > outputBudget {
                    (text, isError) = ("tool output limit of \(Self.maximumTotalToolOutput) characters reached", true)
                }
                outputBudget -= text.count
                uses.append(ToolUse(name: String(toolCall.name.prefix(40)), arguments: String(toolCall.argumentsJSON.prefix(200)),
                                    output: text, isError: isError))
                messages.append(.toolOutput(text, callId: toolCall.id, toolName: toolCall.name))
            }
        }
        throw TandemError(.backendFailure, "the agent did not answer within \(Self.maximumRounds) rounds")
    }
}
