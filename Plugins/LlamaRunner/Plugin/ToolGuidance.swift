import GuidedJSON
import JSONModel
import TandemPluginKit

/// Local tool calling by guided generation. When a request declares tools and its last message
/// is not a tool's output, the model must answer with one call document
/// `{"name":"<tool>","arguments":{...}}` (GuidedJSON's `ToolCallDocument`): the name is one of
/// the declared tools and the arguments follow that tool's schema, enforced token by token. Once
/// the conversation ends with tool output, the model answers in text (or under
/// `response_schema`), so a request → call → output → answer loop ends.
struct ToolGuidance {
    let tools: [ToolCallDocument.Tool]

    /// nil when this request is not a tool-calling turn.
    init?(_ request: BackendRequest) throws(BackendFailure) {
        guard !request.tools.isEmpty, request.messages.last?.role != .tool else { return nil }
        var tools: [ToolCallDocument.Tool] = []
        for (index, tool) in request.tools.enumerated() {
            do {
                let schema = try GenerationSchema(jsonSchema: tool.parametersSchema)
                tools.append(ToolCallDocument.Tool(name: tool.name, description: tool.description.isEmpty ? nil : tool.description, arguments: schema))
            } catch let error as GuidedJSONError {
                let status: BackendStatus = error.code == .unsupportedGuide || error.code == .schemaTooDeep ? .unsupportedGuide : .invalidArgument
                throw BackendFailure(status, "tools[\(index)] (\(tool.name)).parameters_schema\(error.path.map { " at \($0)" } ?? ""): \(error.message)")
            } catch {
                throw BackendFailure(.invalidArgument, "tools[\(index)] (\(tool.name)).parameters_schema: \(error)")
            }
        }
        self.tools = tools
    }

    func constraint(vocabulary: TokenVocabulary) throws(BackendFailure) -> TokenConstraint {
        let schema: GenerationSchema
        do {
            schema = try ToolCallDocument.schema(for: tools)
        } catch {
            throw BackendFailure(.invalidArgument, "tools: \(error)")
        }
        do {
            return try TokenConstraint(schema: schema, vocabulary: vocabulary)
        } catch let error as GuidedJSONError {
            throw BackendFailure(error.code == .unsupportedGuide ? .unsupportedGuide : .invalidArgument,
                                 "tools\(error.path.map { " at \($0)" } ?? ""): \(error.message)")
        } catch {
            throw BackendFailure(.invalidArgument, "tools: \(error)")
        }
    }

    /// The call in a complete generated document.
    func call(from document: String, number: Int) throws(BackendFailure) -> ToolCall {
        do {
            let (name, arguments) = try ToolCallDocument.call(in: try JSONValue(parsing: document), tools: tools)
            return ToolCall(id: "call_\(number)", name: name, argumentsJSON: arguments.jsonText)
        } catch {
            throw BackendFailure(.decoding, "the generated tool call is not valid: \(error) in \(document)")
        }
    }
}
