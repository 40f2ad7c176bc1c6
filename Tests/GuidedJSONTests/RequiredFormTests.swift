import Testing
import GuidedJSON
import JSONModel

@Suite struct RequiredFormTests {
    @Test func optionalPropertiesTravelAsRequiredNullablesAndComeBackAbsent() throws {
        let schema = Cat.generationSchema
        let strict = schema.allPropertiesRequired
        let json = try JSONValue(parsing: strict.jsonSchemaText)
        #expect(json["required"] == ["name", "age", "mood", "toys", "nickname"])
        #expect(json["properties"]?["nickname"]?["anyOf"] == [["type": "string"], ["type": "null"]])
        let generated = try JSONValue(parsing: #"{"name":"Tom","age":3,"mood":"happy","toys":[],"nickname":null}"#)
        #expect(strict.violations(of: generated) == [])
        #expect(!schema.violations(of: generated).isEmpty, "null is not a string")
        let restored = schema.omittingNullOptionals(generated)
        #expect(restored == ["name": "Tom", "age": 3, "mood": "happy", "toys": []])
        #expect(try Cat(GeneratedContent(restored)).nickname == nil)
    }
}
