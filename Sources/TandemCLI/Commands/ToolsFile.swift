import Foundation
import GuidedJSON
import JSONModel
import Tandem

/// `tandem respond --tools FILE.json`: the tools declared to the model, read from a file. The
/// caller runs them; Tandem only passes the declarations and prints the calls.
///
/// The file is a JSON array with one object per tool:
///
///     [{"name": "get_weather", "description": "The weather in a city",
///       "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]
///
/// `name` (1–64 of `A-Z a-z 0-9 _ -`, unique in the file) is required; `description` (text) and
/// `parameters` (a JSON Schema of the arguments object, default: an object with no properties)
/// are optional. An entry in OpenAI's shape, `{"type": "function", "function": {...}}`, is read
/// as the object inside it. Any other key is an error; every error names the file and the entry.
enum ToolsFile {
    static func load(_ path: String, command: String) throws(UsageError) -> [ToolDeclaration] {
        func problem(_ text: String) -> UsageError { UsageError(command, "--tools \(path): \(text)") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw problem("cannot read the file: \(error.localizedDescription)")
        }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: data)
        } catch {
            throw problem("not JSON: \(error)")
        }
        guard case .array(let entries) = document else {
            throw problem("expected a JSON array of tools ([{\"name\": …, \"description\": …, \"parameters\": {…}}]), found \(JSONValue.kindName(document))")
        }
        guard !entries.isEmpty else { throw problem("the array declares no tool") }
        var declarations: [ToolDeclaration] = []
        for (index, entry) in entries.enumerated() {
            let declaration = try tool(entry, at: "tools[\(index)]", problem: problem)
            if let first = declarations.firstIndex(where: { $0.name == declaration.name }) {
                throw problem("tools[\(index)]: the name \"\(declaration.name)\" is already used by tools[\(first)]")
            }
            declarations.append(declaration)
        }
        return declarations
    }

    private static func tool(
        _ entry: JSONValue, at location: String, problem: (String) -> UsageError
    ) throws(UsageError) -> ToolDeclaration {
        guard case .object(var members) = entry else { throw problem("\(location): expected an object, found \(JSONValue.kindName(entry))") }
        var place = location
        // OpenAI's wrapper: {"type": "function", "function": {name, description, parameters}}.
        if members["function"] != nil || members["type"] != nil {
            guard members["type"] == .string("function"), case .object(let inner)? = members["function"], members.count == 2 else {
                throw problem("\(location): an entry with \"type\" must be {\"type\": \"function\", \"function\": {…}} and nothing else")
            }
            members = inner
            place += ".function"
        }
        for (key, _) in members where !["name", "description", "parameters"].contains(key) {
            throw problem("\(place): unknown key \"\(key)\" (expected name, description, parameters)")
        }
        guard case .string(let name)? = members["name"] else {
            throw problem("\(place).name: \(members["name"].map { "expected a string, found \(JSONValue.kindName($0))" } ?? "missing")")
        }
        let allowed = name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
        guard (1...64).contains(name.count), allowed else {
            throw problem("\(place).name: \"\(name)\" is not 1 to 64 of the characters A-Z a-z 0-9 _ -")
        }
        var description = ""
        if let value = members["description"] {
            guard case .string(let text) = value else { throw problem("\(place).description: expected a string, found \(JSONValue.kindName(value))") }
            description = text
        }
        let parameters = members["parameters"] ?? .object(["type": .string("object"), "properties": .object(JSONObject())])
        guard case .object(let schemaMembers) = parameters, schemaMembers["type"] == .string("object") else {
            throw problem("\(place).parameters: expected the JSON Schema of an object ({\"type\": \"object\", \"properties\": {…}}), found \(parameters.jsonText.prefix(80))")
        }
        do {
            let schema = try GenerationSchema(jsonSchema: parameters)
            try schema.check()
            return ToolDeclaration(name: name, description: description, parametersSchema: schema.jsonSchemaText)
        } catch {
            throw problem("\(place).parameters (tool \"\(name)\"): \(error)")
        }
    }

}
