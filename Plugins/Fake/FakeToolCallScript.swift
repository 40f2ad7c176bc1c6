import FoundationEssentials
import TandemBridge

/// Parses the `tool_calls` setting: a JSON array of `{"name": …, "arguments": {…}, "id": …}`
/// (`id` optional, default `call-<n>`). The arguments object is passed on as compact JSON.
enum FakeToolCallScript {
    static func parse(_ text: String) throws(BackendFailure) -> [ToolCall] {
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: Data(text.utf8))
        } catch {
            throw BackendFailure(.invalidArgument, "setting tool_calls: expected a JSON array of {\"name\", \"arguments\"} objects: \(error)")
        }
        guard !entries.isEmpty else { throw BackendFailure(.invalidArgument, "setting tool_calls: the array is empty") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var calls: [ToolCall] = []
        for (index, entry) in entries.enumerated() {
            guard case .object = entry.arguments else {
                throw BackendFailure(.invalidArgument, "setting tool_calls[\(index)].arguments: expected a JSON object")
            }
            guard let json = try? encoder.encode(entry.arguments), let arguments = String(data: json, encoding: .utf8) else {
                throw BackendFailure(.invalidArgument, "setting tool_calls[\(index)].arguments cannot be encoded")
            }
            calls.append(ToolCall(id: entry.id ?? "call-\(index + 1)", name: entry.name, argumentsJSON: arguments))
        }
        return calls
    }

    private struct Entry: Decodable {
        let name: String
        let arguments: JSONValue
        let id: String?
    }
}

/// Any JSON value, to carry a tool call's arguments through unchanged.
enum JSONValue: Codable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value == value.rounded(), abs(value) < 1e15 { try container.encode(Int64(value)) } else { try container.encode(value) }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
