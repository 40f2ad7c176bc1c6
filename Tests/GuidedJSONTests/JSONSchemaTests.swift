import Testing
import GuidedJSON
import JSONModel

@Suite struct JSONSchemaTests {
    static let catSchemaText = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "description": "A cat",
      "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 20, "description": "The cat's name"},
        "mood": {"enum": ["happy", "grumpy"]},
        "age": {"type": "integer", "minimum": 0, "exclusiveMaximum": 26},
        "weight": {"type": "number", "minimum": 0.5, "maximum": 12.5},
        "indoor": {"type": "boolean"},
        "toys": {"type": "array", "items": {"$ref": "#/$defs/toy"}, "maxItems": 3},
        "owner": {"type": ["string", "null"]}
      },
      "required": ["name", "mood", "age", "toys"],
      "additionalProperties": false,
      "$defs": {"toy": {"type": "object", "properties": {"kind": {"type": "string"}}, "required": ["kind"]}}
    }
    """#

    @Test func readsEveryExpressibleKeyword() throws {
        let schema = try GenerationSchema(jsonSchema: Self.catSchemaText)
        let expected = GenerationSchema.object(description: "A cat", properties: [
            .property("name", description: "The cat's name", .string(minLength: 1, maxLength: 20)),
            .property("mood", .string(anyOf: ["happy", "grumpy"])),
            .property("age", .integer(in: 0...25)),
            .optional("weight", .number(in: 0.5...12.5)),
            .optional("indoor", .boolean()),
            .property("toys", .array(of: .object(properties: [.property("kind", .string())]), maxItems: 3)),
            .optional("owner", .anyOf([.string(), .null])),
        ])
        #expect(schema == expected)
    }

    @Test func nullableEnumsKeepNullOnlyWhenListed() throws {
        #expect(try GenerationSchema(jsonSchema: #"{"type":["string","null"],"enum":["a","b",null]}"#)
            == .anyOf([.string(anyOf: ["a", "b"]), .null]))
        #expect(try GenerationSchema(jsonSchema: #"{"type":["string","null"],"enum":["a"]}"#) == .string(anyOf: ["a"]))
        #expect(throws: GuidedJSONError.self) { try GenerationSchema(jsonSchema: #"{"type":"string","enum":["a",null]}"#) }
    }

    @Test func writesJSONSchemaThatReadsBackEqual() throws {
        let schema = try GenerationSchema(jsonSchema: Self.catSchemaText)
        let text = schema.jsonSchemaText
        #expect(try GenerationSchema(jsonSchema: text) == schema)
        let json = try JSONValue(parsing: text)
        #expect(json["additionalProperties"] == false)
        #expect(json["required"] == ["name", "mood", "age", "toys"])
        #expect(json["properties"]?["age"] == ["type": "integer", "minimum": 0, "maximum": 25])
        #expect(json["properties"]?["mood"] == ["type": "string", "enum": ["happy", "grumpy"]])
    }

    /// (schema text, error code, path of the problem)
    static let rejected: [(String, GuidedJSONError.Code, String)] = [
        (##"{"type":"string","format":"date-time"}"##, .unsupportedGuide, "$.format"),
        (##"{"type":"object","properties":{"a":{"type":"array","items":{"type":"integer","multipleOf":2}}}}"##, .unsupportedGuide, "$.properties.a.items.multipleOf"),
        (##"{"type":"object","additionalProperties":{"type":"string"}}"##, .unsupportedGuide, "$.additionalProperties"),
        (##"{"oneOf":[{"type":"string"}]}"##, .unsupportedGuide, "$.oneOf"),
        (##"{"type":"array","items":[{"type":"string"}]}"##, .unsupportedGuide, "$.items"),
        (##"{"description":"anything"}"##, .unsupportedGuide, "$"),
        (##"{"type":"integer","minimum":"zero"}"##, .invalidSchema, "$.minimum"),
        (##"{"type":"object","properties":{"a":{"type":"string"}},"required":["b"]}"##, .invalidSchema, "$.required[0]"),
        (##"{"type":"string","minLength":5,"maxLength":2}"##, .invalidSchema, "$"),
        (##"{"type":"string","enum":["ok","fine"],"maxLength":3}"##, .invalidSchema, "$"),
        (##"{"type":"strin"}"##, .invalidSchema, "$.type"),
        (##"{"$ref":"#/$defs/missing"}"##, .invalidSchema, "$.$ref"),
        (##"{"$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"}}}},"$ref":"#/$defs/node"}"##, .refCycle, "$.$defs.node.properties.next.$ref"),
        (##"{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}"##, .refCycle, "$.$defs.b.$ref"),
        (##"{"type":"string","pattern":"(unclosed"}"##, .invalidSchema, "$"),
        (##"{"type":"object","properties":{"a":1}"##, .truncated, "none"),
    ]

    @Test(arguments: rejected)
    func rejectsWhatItCannotExpressWithThePath(text: String, code: GuidedJSONError.Code, path: String) {
        do {
            let schema = try GenerationSchema(jsonSchema: text)
            Issue.record("accepted \(text) as \(schema)")
        } catch let error as GuidedJSONError {
            #expect(error.code == code, "\(text): \(error)")
            #expect((error.path?.description ?? "none") == path, "\(text): \(error)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func rejectsNestingBeyondTheBound() {
        var text = #"{"type":"string"}"#
        for _ in 0..<GenerationSchema.maximumDepth { text = #"{"type":"array","items":\#(text)}"# }
        do {
            _ = try GenerationSchema(jsonSchema: text)
            Issue.record("accepted a schema \(GenerationSchema.maximumDepth + 1) levels deep")
        } catch let error as GuidedJSONError {
            #expect(error.code == .schemaTooDeep)
            #expect(error.path?.components.count == GenerationSchema.maximumDepth)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func rejectsReferencesThatExpandExponentially() {
        // Each level uses the next one ten times: 10^6 schemas from a few hundred bytes.
        var definitions: [String] = []
        for level in 0..<6 {
            let properties = (0..<10).map { ##""p\##($0)":{"$ref":"#/$defs/l\##(level + 1)"}"## }.joined(separator: ",")
            definitions.append(##""l\##(level)":{"type":"object","properties":{\##(properties)}}"##)
        }
        definitions.append(##""l6":{"type":"string"}"##)
        let text = ##"{"$defs":{\##(definitions.joined(separator: ","))},"$ref":"#/$defs/l0"}"##
        #expect {
            try GenerationSchema(jsonSchema: text)
        } throws: { error in
            (error as? GuidedJSONError)?.code == .schemaTooDeep
        }
    }

    @Test func validationReportsEveryViolationWithItsPath() throws {
        let schema = try GenerationSchema(jsonSchema: Self.catSchemaText)
        let value = try JSONValue(parsing: #"{"name":"","mood":"sad","age":30,"weight":"heavy","toys":[{"kind":"ball"},{}],"owner":null,"extra":1}"#)
        let violations = schema.violations(of: value).map(\.description)
        #expect(violations == [
            "$.extra: property is not declared by the schema",
            "$.name: string has 0 characters, fewer than minLength 1",
            #"$.mood: "sad" is not one of "happy", "grumpy""#,
            "$.age: 30 is greater than maximum 25",
            "$.weight: expected a number, found string",
            #"$.toys[1]: missing required property "kind""#,
        ])
        #expect(throws: GuidedJSONError.self) { try schema.validate(value) }
        let good = try JSONValue(parsing: #"{"name":"Tom","mood":"happy","age":3,"toys":[],"owner":"Ann"}"#)
        #expect(schema.violations(of: good) == [])
    }

    @Test func validatesPatternsAndUnicodeLengths() throws {
        let schema = GenerationSchema.string(minLength: 2, maxLength: 3, pattern: "^[a-zé]+$")
        try schema.check()
        #expect(schema.violations(of: "éé") == [])
        #expect(schema.violations(of: "ab1").map(\.message) == [#"string does not match pattern "^[a-zé]+$""#])
        #expect(schema.violations(of: "abcd").count == 1)
    }
}
