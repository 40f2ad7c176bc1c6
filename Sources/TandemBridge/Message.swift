import CTandemABI

/// Who wrote a message of the conversation.
public enum MessageRole: String, Hashable, Sendable, CaseIterable {
    case system, user, assistant, tool

    var cValue: tandem_role {
        switch self {
        case .system: TANDEM_ROLE_SYSTEM
        case .user: TANDEM_ROLE_USER
        case .assistant: TANDEM_ROLE_ASSISTANT
        case .tool: TANDEM_ROLE_TOOL
        }
    }

    init?(cValue: tandem_role) {
        guard let role = Self.allCases.first(where: { $0.cValue == cValue }) else { return nil }
        self = role
    }
}

/// A function call the model made.
public struct ToolCall: Hashable, Sendable {
    /// The backend's call id; may be empty.
    public var id: String
    public var name: String
    /// One JSON object.
    public var argumentsJSON: String
    /// Opaque provider data to send back verbatim with this call (Gemini's thought signature).
    public var signature: String

    public init(id: String = "", name: String, argumentsJSON: String, signature: String = "") {
        self.id = id
        self.name = name
        self.argumentsJSON = argumentsJSON
        self.signature = signature
    }
}

/// One message of a conversation.
public struct Message: Hashable, Sendable {
    public var role: MessageRole
    /// Text; for `.tool` the tool's output.
    public var content: String
    /// `.assistant`: the calls the model made in this turn.
    public var toolCalls: [ToolCall]
    /// `.tool`: the id of the call this answers.
    public var callId: String
    /// `.tool`: the name of the tool that ran.
    public var toolName: String

    public init(role: MessageRole, content: String, toolCalls: [ToolCall] = [], callId: String = "", toolName: String = "") {
        self.role = role
        self.content = content
        self.toolCalls = toolCalls
        self.callId = callId
        self.toolName = toolName
    }

    public static func system(_ text: String) -> Message { Message(role: .system, content: text) }
    public static func user(_ text: String) -> Message { Message(role: .user, content: text) }
    public static func assistant(_ text: String, toolCalls: [ToolCall] = []) -> Message {
        Message(role: .assistant, content: text, toolCalls: toolCalls)
    }
    public static func toolOutput(_ text: String, callId: String, toolName: String) -> Message {
        Message(role: .tool, content: text, callId: callId, toolName: toolName)
    }
}

/// A tool the model may call.
public struct ToolDeclaration: Hashable, Sendable {
    public var name: String
    public var description: String
    /// JSON Schema text of the arguments object.
    public var parametersSchema: String

    public init(name: String, description: String, parametersSchema: String) {
        self.name = name
        self.description = description
        self.parametersSchema = parametersSchema
    }
}
