import JSONModel
import TandemBridge

/// Parses the `tool_calls` setting: a JSON array of `{"name": …, "arguments": {…}, "id": …}`
/// (`id` optional, default `call-<n>`). The arguments object is passed on as compact JSON.
enum FakeToolCallScript {
    static func parse(_ text: String) throws(BackendFailure) -> [ToolCall] {
        func malformed(_ detail: String) -> BackendFailure {
            BackendFailure(.invalidArgument, "setting tool_calls: expected a JSON array of {\"name\", \"arguments\"} objects: \(detail)")
        }
        let document: JSONValue
        do { document = try JSONValue(parsing: text) } catch { throw malformed("\(error)") }
        guard case .array(let entries) = document else { throw malformed("found \(document.typeName)") }
        guard !entries.isEmpty else { throw BackendFailure(.invalidArgument, "setting tool_calls: the array is empty") }
        var calls: [ToolCall] = []
        for (index, entry) in entries.enumerated() {
            guard case .object = entry else { throw malformed("[\(index)] is \(entry.typeName)") }
            guard let name = entry["name"]?.stringValue else { throw malformed("[\(index)].name is missing or not a string") }
            guard let arguments = entry["arguments"], case .object = arguments else {
                throw BackendFailure(.invalidArgument, "setting tool_calls[\(index)].arguments: expected a JSON object")
            }
            let id: String?
            switch entry["id"] {
            case nil, .null?: id = nil
            case .string(let text)?: id = text
            case let other?: throw malformed("[\(index)].id is \(other.typeName), not a string")
            }
            calls.append(ToolCall(id: id ?? "call-\(index + 1)", name: name, argumentsJSON: arguments.jsonText(sortingKeys: true)))
        }
        return calls
    }
}
