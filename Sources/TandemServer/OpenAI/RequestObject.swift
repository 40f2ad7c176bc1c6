/// A JSON object of a request read field by field, each error naming the field's path
/// (`messages[2].tool_calls[0].function.name`) and what was expected.
struct RequestObject {
    let members: JSONMembers
    /// The path of this object ("" at the top).
    let path: String

    init(_ value: JSON, path: String) throws(APIError) {
        guard case .object(let members) = value else {
            throw APIError.invalid(path.isEmpty ? nil : path, "\(path.isEmpty ? "the body" : path): expected an object, found \(value.typeName)")
        }
        self.members = members
        self.path = path
    }

    func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Refuses members not in `known`, as OpenAI does ("Unrecognized request argument"): a
    /// misspelt option must not pass silently.
    func rejectUnknown(_ known: Set<String>) throws(APIError) {
        for member in members where !known.contains(member.key) {
            throw APIError.invalid(fieldPath(member.key), "unrecognized request argument: \(fieldPath(member.key))", code: "unknown_parameter")
        }
    }

    /// The member, nil when absent or JSON null.
    func value(_ key: String) -> JSON? {
        guard let value = members[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws(APIError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw mismatch(key, "a string", value) }
        return text
    }

    func requiredString(_ key: String) throws(APIError) -> String {
        guard let text = try string(key) else { throw APIError.invalid(fieldPath(key), "\(fieldPath(key)) is required", code: "missing_required_parameter") }
        return text
    }

    func bool(_ key: String) throws(APIError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw mismatch(key, "a boolean", value) }
        return flag
    }

    func number(_ key: String) throws(APIError) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.numberValue else { throw mismatch(key, "a number", value) }
        return number
    }

    func integer(_ key: String) throws(APIError) -> Int64? {
        guard let value = value(key) else { return nil }
        guard let integer = value.integerValue else { throw mismatch(key, "an integer", value) }
        return integer
    }

    func array(_ key: String) throws(APIError) -> [JSON]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw mismatch(key, "an array", value) }
        return elements
    }

    func object(_ key: String) throws(APIError) -> RequestObject? {
        guard let value = value(key) else { return nil }
        return try RequestObject(value, path: fieldPath(key))
    }

    func mismatch(_ key: String, _ expected: String, _ found: JSON) -> APIError {
        APIError.invalid(fieldPath(key), "\(fieldPath(key)): expected \(expected), found \(found.typeName)", code: "invalid_type")
    }
}
