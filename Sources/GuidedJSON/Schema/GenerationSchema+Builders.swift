// The builder surface: `GenerationSchema.object(properties: [.property("age", .integer(in: 0...20))])`.

extension GenerationSchema {
    public static func string(
        description: String? = nil, minLength: Int? = nil, maxLength: Int? = nil, pattern: String? = nil
    ) -> GenerationSchema {
        GenerationSchema(.string(StringGuides(pattern: pattern, minLength: minLength, maxLength: maxLength)), description: description)
    }

    /// A string that must be one of `choices` (JSON Schema `enum`).
    public static func string(description: String? = nil, anyOf choices: [String]) -> GenerationSchema {
        GenerationSchema(.string(StringGuides(choices: choices)), description: description)
    }

    public static func integer(description: String? = nil, minimum: Int? = nil, maximum: Int? = nil) -> GenerationSchema {
        GenerationSchema(.integer(minimum: minimum.map(Int64.init), maximum: maximum.map(Int64.init)), description: description)
    }

    public static func integer(description: String? = nil, in range: ClosedRange<Int>) -> GenerationSchema {
        integer(description: description, minimum: range.lowerBound, maximum: range.upperBound)
    }

    public static func number(description: String? = nil, minimum: Double? = nil, maximum: Double? = nil) -> GenerationSchema {
        GenerationSchema(.number(minimum: minimum, maximum: maximum), description: description)
    }

    public static func number(description: String? = nil, in range: ClosedRange<Double>) -> GenerationSchema {
        number(description: description, minimum: range.lowerBound, maximum: range.upperBound)
    }

    public static func boolean(description: String? = nil) -> GenerationSchema {
        GenerationSchema(.boolean, description: description)
    }

    public static var null: GenerationSchema { GenerationSchema(.null) }

    public static func array(
        of items: GenerationSchema, description: String? = nil, minItems: Int? = nil, maxItems: Int? = nil
    ) -> GenerationSchema {
        GenerationSchema(.array(items: items, minItems: minItems, maxItems: maxItems), description: description)
    }

    public static func array(of items: GenerationSchema, description: String? = nil, count: ClosedRange<Int>) -> GenerationSchema {
        array(of: items, description: description, minItems: count.lowerBound, maxItems: count.upperBound)
    }

    public static func array<Element: Generable>(
        of element: Element.Type, description: String? = nil, minItems: Int? = nil, maxItems: Int? = nil
    ) -> GenerationSchema {
        array(of: Element.generationSchema, description: description, minItems: minItems, maxItems: maxItems)
    }

    public static func object(description: String? = nil, properties: [Property]) -> GenerationSchema {
        GenerationSchema(.object(properties: properties), description: description)
    }

    public static func anyOf(_ alternatives: [GenerationSchema], description: String? = nil) -> GenerationSchema {
        GenerationSchema(.anyOf(alternatives), description: description)
    }

    /// The same schema with a different guide.
    public func describing(_ description: String) -> GenerationSchema {
        var copy = self
        copy.description = description
        return copy
    }
}

extension GenerationSchema.Property {
    /// A required property with an explicit schema.
    public static func property(_ name: String, description: String? = nil, _ schema: GenerationSchema) -> Self {
        Self(name: name, schema: description.map(schema.describing) ?? schema, isRequired: true)
    }

    /// A property whose schema comes from a Swift type. `Optional` types give optional properties
    /// (left out of the document when absent) described by the wrapped type's schema.
    public static func property<Value: Generable>(_ name: String, description: String? = nil, _ type: Value.Type) -> Self {
        let isOptional = type is any OptionalGenerable.Type
        let schema = (type as? any OptionalGenerable.Type)?.wrappedGenerationSchema ?? type.generationSchema
        return Self(name: name, schema: description.map(schema.describing) ?? schema, isRequired: !isOptional)
    }

    /// An optional property with an explicit schema.
    public static func optional(_ name: String, description: String? = nil, _ schema: GenerationSchema) -> Self {
        Self(name: name, schema: description.map(schema.describing) ?? schema, isRequired: false)
    }
}
