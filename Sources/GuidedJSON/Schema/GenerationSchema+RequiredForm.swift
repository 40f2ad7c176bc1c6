import JSONModel

// Some providers' strict modes (OpenAI's structured outputs) insist that every property is
// required. An optional property is then sent as required-but-nullable, and a `null` it comes
// back with means "absent". These two functions convert there and back.

extension GenerationSchema {
    /// This schema with every optional property made required and nullable (`anyOf` with null),
    /// at every depth.
    public var allPropertiesRequired: GenerationSchema {
        var copy = self
        switch kind {
        case .array(let items, let minItems, let maxItems):
            copy.kind = .array(items: items.allPropertiesRequired, minItems: minItems, maxItems: maxItems)
        case .anyOf(let alternatives):
            copy.kind = .anyOf(alternatives.map(\.allPropertiesRequired))
        case .object(let properties):
            copy.kind = .object(properties: properties.map { property in
                var schema = property.schema.allPropertiesRequired
                if !property.isRequired, !schema.acceptsNull {
                    schema = GenerationSchema(.anyOf([schema, .null]), description: schema.description)
                }
                return Property(name: property.name, schema: schema, isRequired: true)
            })
        case .string, .integer, .number, .boolean, .null:
            break
        }
        return copy
    }

    /// Undoes `allPropertiesRequired` on a value generated against it: removes `null` members of
    /// optional properties whose own schema does not allow null. Validate the result against
    /// this (original) schema.
    public func omittingNullOptionals(_ value: JSONValue) -> JSONValue {
        switch (kind, value) {
        case (.array(let items, _, _), .array(let elements)):
            return .array(elements.map(items.omittingNullOptionals))
        case (.anyOf(let alternatives), _):
            // The first alternative the converted value satisfies decides.
            for alternative in alternatives {
                let converted = alternative.omittingNullOptionals(value)
                if alternative.violations(of: converted).isEmpty { return converted }
            }
            return value
        case (.object(let properties), .object(var object)):
            for property in properties {
                guard let member = object[property.name] else { continue }
                if member == .null, !property.isRequired, !property.schema.acceptsNull {
                    object[property.name] = nil
                } else {
                    object[property.name] = property.schema.omittingNullOptionals(member)
                }
            }
            return .object(object)
        default:
            return value
        }
    }

    private var acceptsNull: Bool {
        switch kind {
        case .null: true
        case .anyOf(let alternatives): alternatives.contains(where: \.acceptsNull)
        default: false
        }
    }
}
