import JSONModel

/// The JSON document a backend without native function calling generates to call a tool:
/// `{"name":"<tool>","arguments":{...}}`, where the arguments follow that tool's schema, or, when
/// answering is allowed too, `{"answer":"<text>"}`.
///
/// The schema is an anyOf of one object per tool whose first property `name` is a single-choice
/// string, so the local automaton commits to a tool as soon as the name is written and then
/// enforces that tool's arguments. `decision(in:tools:)` reads a generated document back.
public enum ToolCallDocument {
    /// What the model chose.
    public enum Decision: Sendable, Hashable {
        case call(name: String, arguments: JSONValue)
        case answer(String)
    }

    public struct Tool: Sendable, Hashable {
        public var name: String
        public var description: String?
        /// The arguments object's schema (the ABI's `parameters_schema`).
        public var arguments: GenerationSchema

        public init(name: String, description: String? = nil, arguments: GenerationSchema) {
            self.name = name
            self.description = description
            self.arguments = arguments
        }
    }

    /// One alternative per tool, in the order given, plus `{"answer": string}` when
    /// `allowingAnswer`. Tool names must be distinct.
    public static func schema(for tools: [Tool], allowingAnswer: Bool = false) throws -> GenerationSchema {
        var seen = Set<String>()
        for tool in tools where !seen.insert(tool.name).inserted {
            throw GuidedJSONError(.invalidSchema, "tool \"\(tool.name)\" is declared twice")
        }
        guard !tools.isEmpty else { throw GuidedJSONError(.invalidSchema, "a tool call needs at least one tool") }
        var alternatives = tools.map { tool in
            GenerationSchema.object(description: tool.description, properties: [
                .property("name", .string(anyOf: [tool.name])),
                .property("arguments", tool.arguments),
            ])
        }
        if allowingAnswer {
            alternatives.append(.object(description: "A reply to the user instead of a tool call", properties: [.property("answer", .string())]))
        }
        let schema = GenerationSchema.anyOf(alternatives)
        try schema.check()
        return schema
    }

    /// A generated answer or call. Throws like `call(in:tools:)`.
    public static func decision(in document: JSONValue, tools: [Tool]) throws -> Decision {
        if case .object(let object) = document, object.keys == ["answer"] {
            guard case .string(let text) = document["answer"] else {
                throw GuidedJSONError(.decodingFailure, "an answer must be a string", path: JSONPath.root.appending(key: "answer"))
            }
            return .answer(text)
        }
        let call = try call(in: document, tools: tools)
        return .call(name: call.name, arguments: call.arguments)
    }

    /// The tool name and arguments of a generated call. Throws `.decodingFailure` with the path
    /// when the document is not a call, `.validationFailed` when it does not match `tools`.
    public static func call(in document: JSONValue, tools: [Tool]) throws -> (name: String, arguments: JSONValue) {
        guard case .string(let name) = document["name"] else {
            throw GuidedJSONError(.decodingFailure, "a tool call needs a string \"name\"", path: JSONPath.root.appending(key: "name"))
        }
        guard let tool = tools.first(where: { $0.name == name }) else {
            throw GuidedJSONError(.decodingFailure, "no tool is named \"\(name)\"", path: JSONPath.root.appending(key: "name"))
        }
        guard let arguments = document["arguments"] else {
            throw GuidedJSONError(.decodingFailure, "a tool call needs \"arguments\"", path: JSONPath.root.appending(key: "arguments"))
        }
        do {
            try tool.arguments.validate(arguments)
        } catch var error as GuidedJSONError {
            let prefix = JSONPath.root.appending(key: "arguments").components
            error.violations = error.violations.map { SchemaViolation(path: JSONPath(prefix + $0.path.components), message: $0.message) }
            error.path = error.violations.first?.path
            throw error
        }
        return (name, arguments)
    }
}
