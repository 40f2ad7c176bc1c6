import JSONModel

/// Reads JSON Schema text into a `GenerationSchema`, rejecting what the model cannot express with
/// the JSON path (into the schema document) of the problem. See README.md for the keyword list.
struct JSONSchemaReader {
    /// Keywords that say nothing about the values they describe.
    private static let annotationKeywords: Set<String> = ["description", "title", "$schema", "$comment", "$defs", "definitions"]

    private static let keywordsByType: [String: Set<String>] = [
        "string": ["minLength", "maxLength", "pattern", "enum", "const"],
        "integer": ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
        "number": ["minimum", "maximum"],
        "boolean": [],
        "null": [],
        "array": ["items", "minItems", "maxItems"],
        "object": ["properties", "required", "additionalProperties"],
    ]

    let document: JSONValue
    private var referencesInProgress: [String] = []
    /// Schemas read so far, counting each use of a `$ref` target again: references can make a
    /// small document expand exponentially.
    private var schemasRead = 0

    init(document: JSONValue) {
        self.document = document
    }

    mutating func read() throws -> GenerationSchema {
        let schema = try read(document, at: .root, depth: 1)
        try schema.check()
        return schema
    }

    private mutating func read(_ value: JSONValue, at path: JSONPath, depth: Int) throws -> GenerationSchema {
        schemasRead += 1
        guard schemasRead <= GenerationSchema.maximumSize else {
            throw GuidedJSONError(.schemaTooDeep, "the schema expands to more than \(GenerationSchema.maximumSize) schemas", path: path)
        }
        guard case .object(let object) = value else {
            if case .bool = value {
                throw GuidedJSONError(.unsupportedGuide, "boolean schemas are not supported; describe the value", path: path)
            }
            throw GuidedJSONError(.invalidSchema, "a schema must be an object, found \(value.typeName)", path: path)
        }
        guard depth <= GenerationSchema.maximumDepth else {
            throw GuidedJSONError(.schemaTooDeep, "the schema nests deeper than \(GenerationSchema.maximumDepth) levels", path: path)
        }
        let description = try string(object, "description", at: path)

        if let reference = object["$ref"] {
            try allowOnly(Self.annotationKeywords.union(["$ref"]), in: object, at: path, reason: "next to $ref")
            var schema = try resolve(reference, at: path.appending(key: "$ref"), depth: depth)
            if let description { schema.description = description }
            return schema
        }
        if let alternatives = object["anyOf"] {
            try allowOnly(Self.annotationKeywords.union(["anyOf"]), in: object, at: path, reason: "next to anyOf")
            guard case .array(let elements) = alternatives, !elements.isEmpty else {
                throw GuidedJSONError(.invalidSchema, "anyOf must be a non-empty array", path: path.appending(key: "anyOf"))
            }
            var schemas: [GenerationSchema] = []
            for (index, element) in elements.enumerated() {
                schemas.append(try read(element, at: path.appending(key: "anyOf").appending(index: index), depth: depth + 1))
            }
            return GenerationSchema(.anyOf(schemas), description: description)
        }

        var types = try typeNames(object, at: path)
        // `"type": ["string", "null"]` with an enum: null is allowed only if the enum lists it.
        if types.count > 1, types.contains("null"), object["enum"] != nil || object["const"] != nil {
            let listed: [JSONValue] = if case .array(let values) = object["enum"] { values } else { object["const"].map { [$0] } ?? [] }
            if !listed.contains(.null) { types.removeAll { $0 == "null" } }
        }
        let allowed = types.reduce(into: Self.annotationKeywords.union(["type"])) { $0.formUnion(Self.keywordsByType[$1]!) }
        try allowOnly(allowed, in: object, at: path, reason: "for type \(types.joined(separator: "/"))")

        var alternatives: [GenerationSchema] = []
        for type in types {
            alternatives.append(GenerationSchema(try kind(of: type, among: types, object, at: path, depth: depth)))
        }
        if alternatives.count == 1 {
            return GenerationSchema(alternatives[0].kind, description: description)
        }
        return GenerationSchema(.anyOf(alternatives), description: description)
    }

    /// The `type` keyword as a list; inferred as string for string-only `enum`/`const`.
    private func typeNames(_ object: JSONObject, at path: JSONPath) throws -> [String] {
        let names: [String]
        switch object["type"] {
        case .string(let name):
            names = [name]
        case .array(let elements):
            names = try elements.enumerated().map { index, element in
                guard case .string(let name) = element else {
                    throw GuidedJSONError(.invalidSchema, "type names must be strings", path: path.appending(key: "type").appending(index: index))
                }
                return name
            }
            guard !names.isEmpty, Set(names).count == names.count else {
                throw GuidedJSONError(.invalidSchema, "type must list distinct type names", path: path.appending(key: "type"))
            }
        case nil:
            if object["enum"] != nil || object["const"] != nil { return ["string"] }
            if object["properties"] != nil { return ["object"] }
            let known = Self.keywordsByType.values.reduce(Self.annotationKeywords, { $0.union($1) })
            try allowOnly(known, in: object, at: path, reason: "by this host")
            throw GuidedJSONError(.unsupportedGuide, "a schema without \"type\" (any value) cannot be generated; add a type", path: path)
        case .some(let other):
            throw GuidedJSONError(.invalidSchema, "type must be a string or an array, found \(other.typeName)", path: path.appending(key: "type"))
        }
        for (index, name) in names.enumerated() where Self.keywordsByType[name] == nil {
            var typePath = path.appending(key: "type")
            if case .array = object["type"] { typePath = typePath.appending(index: index) }
            throw GuidedJSONError(.invalidSchema, "unknown type \"\(name)\"", path: typePath)
        }
        return names
    }

    private mutating func kind(of type: String, among types: [String], _ object: JSONObject, at path: JSONPath, depth: Int) throws -> GenerationSchema.Kind {
        switch type {
        case "string":
            var guides = GenerationSchema.StringGuides(
                pattern: try string(object, "pattern", at: path),
                minLength: try count(object, "minLength", at: path),
                maxLength: try count(object, "maxLength", at: path))
            guides.choices = try choices(object, at: path, nullHasItsOwnType: types.contains("null"))
            return .string(guides)
        case "integer":
            var minimum = try bound(object, "minimum", at: path).map { try integerBound($0.rounded(.up), "minimum", at: path) }
            var maximum = try bound(object, "maximum", at: path).map { try integerBound($0.rounded(.down), "maximum", at: path) }
            if let exclusive = try bound(object, "exclusiveMinimum", at: path) {
                let value = try integerBound(exclusive.rounded(.down) + 1, "exclusiveMinimum", at: path)
                minimum = max(minimum ?? value, value)
            }
            if let exclusive = try bound(object, "exclusiveMaximum", at: path) {
                let value = try integerBound(exclusive.rounded(.up) - 1, "exclusiveMaximum", at: path)
                maximum = min(maximum ?? value, value)
            }
            return .integer(minimum: minimum, maximum: maximum)
        case "number":
            return .number(minimum: try bound(object, "minimum", at: path), maximum: try bound(object, "maximum", at: path))
        case "boolean":
            return .boolean
        case "null":
            return .null
        case "array":
            guard let items = object["items"] else {
                throw GuidedJSONError(.unsupportedGuide, "an array needs an \"items\" schema", path: path)
            }
            if case .array = items {
                throw GuidedJSONError(.unsupportedGuide, "tuple-form \"items\" is not supported", path: path.appending(key: "items"))
            }
            return .array(
                items: try read(items, at: path.appending(key: "items"), depth: depth + 1),
                minItems: try count(object, "minItems", at: path), maxItems: try count(object, "maxItems", at: path))
        default:
            return .object(properties: try properties(object, at: path, depth: depth))
        }
    }

    private mutating func properties(_ object: JSONObject, at path: JSONPath, depth: Int) throws -> [GenerationSchema.Property] {
        switch object["additionalProperties"] {
        case nil, .bool(false): break
        case .some:
            throw GuidedJSONError(.unsupportedGuide, "objects are closed: only \"additionalProperties\": false is supported", path: path.appending(key: "additionalProperties"))
        }
        var properties: [GenerationSchema.Property] = []
        switch object["properties"] {
        case nil: break
        case .object(let members):
            for (name, member) in members {
                let schema = try read(member, at: path.appending(key: "properties").appending(key: name), depth: depth + 1)
                properties.append(GenerationSchema.Property(name: name, schema: schema, isRequired: false))
            }
        case .some(let other):
            throw GuidedJSONError(.invalidSchema, "properties must be an object, found \(other.typeName)", path: path.appending(key: "properties"))
        }
        switch object["required"] {
        case nil: break
        case .array(let names):
            for (index, name) in names.enumerated() {
                let namePath = path.appending(key: "required").appending(index: index)
                guard case .string(let name) = name else { throw GuidedJSONError(.invalidSchema, "required names must be strings", path: namePath) }
                guard let position = properties.firstIndex(where: { $0.name == name }) else {
                    throw GuidedJSONError(.invalidSchema, "required property \"\(name)\" is not declared in properties", path: namePath)
                }
                properties[position].isRequired = true
            }
        case .some(let other):
            throw GuidedJSONError(.invalidSchema, "required must be an array, found \(other.typeName)", path: path.appending(key: "required"))
        }
        return properties
    }

    /// The string values of `enum` or `const`; a null among them belongs to the null alternative
    /// when the type list has one.
    private func choices(_ object: JSONObject, at path: JSONPath, nullHasItsOwnType: Bool) throws -> [String]? {
        var values: [(JSONValue, JSONPath)] = []
        if case .array(let elements) = object["enum"] {
            values = elements.enumerated().map { ($1, path.appending(key: "enum").appending(index: $0)) }
        } else if let other = object["enum"] {
            throw GuidedJSONError(.invalidSchema, "enum must be an array, found \(other.typeName)", path: path.appending(key: "enum"))
        }
        if let constant = object["const"] {
            guard object["enum"] == nil else {
                throw GuidedJSONError(.unsupportedGuide, "enum and const together are not supported", path: path.appending(key: "const"))
            }
            values = [(constant, path.appending(key: "const"))]
        }
        if object["enum"] == nil && object["const"] == nil { return nil }
        if nullHasItsOwnType { values.removeAll { $0.0 == .null } }
        return try values.map { value, valuePath in
            guard case .string(let string) = value else {
                throw GuidedJSONError(.unsupportedGuide, "only string enum and const values are supported, found \(value.typeName)", path: valuePath)
            }
            return string
        }
    }

    private mutating func resolve(_ reference: JSONValue, at path: JSONPath, depth: Int) throws -> GenerationSchema {
        guard case .string(let pointer) = reference else {
            throw GuidedJSONError(.invalidSchema, "$ref must be a string", path: path)
        }
        guard pointer.hasPrefix("#") else {
            throw GuidedJSONError(.unsupportedGuide, "only references inside the document (\"#/...\") are supported", path: path)
        }
        guard !referencesInProgress.contains(pointer) else {
            throw GuidedJSONError(.refCycle, "$ref \"\(pointer)\" refers back to itself (recursive schemas are not supported)", path: path)
        }
        var target = document
        var targetPath = JSONPath.root
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch target {
            case .object(let object) where object[key] != nil:
                target = object[key]!
                targetPath = targetPath.appending(key: key)
            case .array(let elements) where Int(key).map(elements.indices.contains) == true:
                target = elements[Int(key)!]
                targetPath = targetPath.appending(index: Int(key)!)
            default:
                throw GuidedJSONError(.invalidSchema, "$ref \"\(pointer)\" points at nothing", path: path)
            }
        }
        referencesInProgress.append(pointer)
        defer { referencesInProgress.removeLast() }
        return try read(target, at: targetPath, depth: depth)
    }

    private func allowOnly(_ allowed: Set<String>, in object: JSONObject, at path: JSONPath, reason: String) throws {
        for key in object.keys where !allowed.contains(key) {
            throw GuidedJSONError(.unsupportedGuide, "keyword \"\(key)\" is not supported \(reason)", path: path.appending(key: key))
        }
    }

    private func string(_ object: JSONObject, _ key: String, at path: JSONPath) throws -> String? {
        switch object[key] {
        case nil: return nil
        case .string(let value): return value
        case .some(let other):
            throw GuidedJSONError(.invalidSchema, "\(key) must be a string, found \(other.typeName)", path: path.appending(key: key))
        }
    }

    private func count(_ object: JSONObject, _ key: String, at path: JSONPath) throws -> Int? {
        guard let value = object[key] else { return nil }
        guard let integer = value.integerValue, integer >= 0, let count = Int(exactly: integer) else {
            throw GuidedJSONError(.invalidSchema, "\(key) must be a non-negative integer, found \(value.jsonText)", path: path.appending(key: key))
        }
        return count
    }

    private func bound(_ object: JSONObject, _ key: String, at path: JSONPath) throws -> Double? {
        guard let value = object[key] else { return nil }
        guard let number = value.numberValue else {
            throw GuidedJSONError(.invalidSchema, "\(key) must be a number, found \(value.typeName)", path: path.appending(key: key))
        }
        return number
    }

    private func integerBound(_ value: Double, _ key: String, at path: JSONPath) throws -> Int64 {
        guard let integer = Int64(exactly: value) else {
            throw GuidedJSONError(.unsupportedGuide, "\(key) is outside the 64-bit integer range", path: path.appending(key: key))
        }
        return integer
    }
}

extension GenerationSchema {
    /// Reads JSON Schema text (see README.md for the supported keywords). Throws
    /// `GuidedJSONError` with the JSON path of the problem: `.unsupportedGuide` for keywords and
    /// constructs that cannot be expressed, `.refCycle`, `.schemaTooDeep`, `.invalidSchema`, or
    /// `.syntax` when the text is not JSON.
    public init(jsonSchema text: String) throws {
        try self.init(jsonSchema: try JSONValue(parsingDocument: text))
    }

    public init(jsonSchema document: JSONValue) throws {
        var reader = JSONSchemaReader(document: document)
        self = try reader.read()
    }
}
