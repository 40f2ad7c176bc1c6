import JSONModel

extension GenerationSchema {
    /// The schema as JSON Schema (draft 2020-12 vocabulary): what backends receive in
    /// `response_schema` / `parameters_schema`. Objects carry `"additionalProperties": false` and
    /// list their properties in generation order; reading the text back gives an equal schema.
    public var jsonSchema: JSONValue {
        var object = JSONObject()
        switch kind {
        case .string(let guides):
            object["type"] = "string"
            if let choices = guides.choices { object["enum"] = .array(choices.map(JSONValue.string)) }
            if let pattern = guides.pattern { object["pattern"] = .string(pattern) }
            if let minLength = guides.minLength { object["minLength"] = .integer(Int64(minLength)) }
            if let maxLength = guides.maxLength { object["maxLength"] = .integer(Int64(maxLength)) }
        case .integer(let minimum, let maximum):
            object["type"] = "integer"
            if let minimum { object["minimum"] = .integer(minimum) }
            if let maximum { object["maximum"] = .integer(maximum) }
        case .number(let minimum, let maximum):
            object["type"] = "number"
            if let minimum { object["minimum"] = .number(minimum) }
            if let maximum { object["maximum"] = .number(maximum) }
        case .boolean:
            object["type"] = "boolean"
        case .null:
            object["type"] = "null"
        case .array(let items, let minItems, let maxItems):
            object["type"] = "array"
            object["items"] = items.jsonSchema
            if let minItems { object["minItems"] = .integer(Int64(minItems)) }
            if let maxItems { object["maxItems"] = .integer(Int64(maxItems)) }
        case .object(let properties):
            object["type"] = "object"
            var members = JSONObject()
            for property in properties { members[property.name] = property.schema.jsonSchema }
            object["properties"] = .object(members)
            object["required"] = .array(properties.filter(\.isRequired).map { .string($0.name) })
            object["additionalProperties"] = false
        case .anyOf(let alternatives):
            object["anyOf"] = .array(alternatives.map(\.jsonSchema))
        }
        if let description { object["description"] = .string(description) }
        return .object(object)
    }

    /// `jsonSchema` as compact JSON text.
    public var jsonSchemaText: String { jsonSchema.jsonText }
}
