import Testing
import GuidedJSON
import JSONModel

enum Mood: String, CaseIterable, Generable, ConvertibleToGeneratedContent {
    case happy, grumpy, sleepy
}

struct Toy: Generable, ConvertibleToGeneratedContent, Equatable {
    var kind: String
    var squeaks: Bool

    var generatedContent: GeneratedContent {
        GeneratedContent(["kind": kind.generatedContent.value, "squeaks": squeaks.generatedContent.value])
    }

    static var generationSchema: GenerationSchema {
        .object(properties: [
            .property("kind", .string(maxLength: 10)),
            .property("squeaks", Bool.self),
        ])
    }

    init(kind: String, squeaks: Bool) {
        self.kind = kind
        self.squeaks = squeaks
    }

    init(_ content: GeneratedContent) throws {
        kind = try content.value(forProperty: "kind")
        squeaks = try content.value(forProperty: "squeaks")
    }
}

/// The examples the brief asks for: an enum field, a bounded integer, a bounded string, a nested
/// array (of objects), plus an optional property.
struct Cat: Generable, Equatable {
    var name: String
    var age: Int
    var mood: Mood
    var toys: [Toy]
    var nickname: String?

    static var generationSchema: GenerationSchema {
        .object(description: "A cat", properties: [
            .property("name", description: "The cat's name", .string(minLength: 1, maxLength: 12)),
            .property("age", description: "Age in years", .integer(in: 0...20)),
            .property("mood", Mood.self),
            .property("toys", .array(of: Toy.self, maxItems: 3)),
            .property("nickname", String?.self),
        ])
    }

    init(name: String, age: Int, mood: Mood, toys: [Toy], nickname: String?) {
        (self.name, self.age, self.mood, self.toys, self.nickname) = (name, age, mood, toys, nickname)
    }

    init(_ content: GeneratedContent) throws {
        name = try content.value(forProperty: "name")
        age = try content.value(forProperty: "age")
        mood = try content.value(forProperty: "mood")
        toys = try content.value(forProperty: "toys")
        nickname = try content.value(forProperty: "nickname")
    }
}

@Suite struct GenerableTests {
    @Test func builderSchemaBecomesJSONSchema() throws {
        let schema = try JSONValue(parsing: Cat.generationSchema.jsonSchemaText)
        #expect(schema["description"] == "A cat")
        #expect(schema["required"] == ["name", "age", "mood", "toys"])
        #expect(schema["properties"]?["age"] == ["type": "integer", "minimum": 0, "maximum": 20, "description": "Age in years"])
        #expect(schema["properties"]?["mood"] == ["type": "string", "enum": ["happy", "grumpy", "sleepy"]])
        #expect(schema["properties"]?["nickname"] == ["type": "string"])
        #expect(schema["properties"]?["toys"]?["items"]?["properties"]?["squeaks"] == ["type": "boolean"])
        #expect(try GenerationSchema(jsonSchema: Cat.generationSchema.jsonSchemaText) == Cat.generationSchema)
    }

    @Test func decodesGeneratedJSON() throws {
        let cat = try Cat(generatedJSON: #"{"name":"Tom","age":4,"mood":"sleepy","toys":[{"kind":"mouse","squeaks":true}]}"#)
        #expect(cat == Cat(name: "Tom", age: 4, mood: .sleepy, toys: [Toy(kind: "mouse", squeaks: true)], nickname: nil))
        let named = try Cat(generatedJSON: #"{"name":"Tom","age":4,"mood":"happy","toys":[],"nickname":"T"}"#)
        #expect(named.nickname == "T")
    }

    @Test func invalidDocumentsFailWithThePath() {
        func failure(_ text: String) -> GuidedJSONError? {
            do {
                _ = try Cat(generatedJSON: text)
                return nil
            } catch {
                return error as? GuidedJSONError
            }
        }
        let outOfRange = failure(#"{"name":"Tom","age":40,"mood":"happy","toys":[]}"#)
        #expect(outOfRange?.code == .validationFailed)
        #expect(outOfRange?.path?.description == "$.age")
        let badToy = failure(#"{"name":"Tom","age":4,"mood":"happy","toys":[{"kind":"ball","squeaks":"yes"}]}"#)
        #expect(badToy?.path?.description == "$.toys[0].squeaks")
        let truncated = failure(#"{"name":"Tom","age":4,"mood":"hap"#)
        #expect(truncated?.code == .truncated)
        #expect(truncated?.byteOffset == 33)
    }

    @Test func decodersReportThePathOfWhatTheyCannotRead() {
        // Bypassing validation: the decoder itself names the path.
        let content = GeneratedContent(["name": "Tom", "age": 4.5, "mood": "happy", "toys": []])
        do {
            _ = try Cat(content)
            Issue.record("decoded age 4.5 as an Int")
        } catch let error as GuidedJSONError {
            #expect(error.code == .decodingFailure)
            #expect(error.path?.description == "$.age")
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: GuidedJSONError.self) { try Mood(GeneratedContent("sad")) }
        #expect(throws: GuidedJSONError.self) { try Cat(GeneratedContent(["name": "Tom", "age": 1, "mood": "happy"])) }
    }

    @Test func standardTypesCompose() throws {
        #expect(try [Int?](GeneratedContent([1, nil, 3])) == [1, nil, 3])
        #expect([Int?].generationSchema == .array(of: .anyOf([.integer(), .null])))
        #expect(try Double(GeneratedContent(2)) == 2.0)
        #expect(try [[String]](GeneratedContent([["a"], []])) == [["a"], []])
    }

    @Test func valuesWriteThemselvesBackAsContent() throws {
        let toys = [Toy(kind: "mouse", squeaks: true), Toy(kind: "ball", squeaks: false)]
        #expect(toys.generatedContent.jsonText == #"[{"kind":"mouse","squeaks":true},{"kind":"ball","squeaks":false}]"#)
        #expect(try [Toy](toys.generatedContent) == toys)
        #expect(Mood.grumpy.generatedContent.value == "grumpy")
        #expect(Optional<Int>.none.generatedContent.isNull && Optional(3).generatedContent.value == 3)
        #expect(2.5.generatedContent.value == 2.5)
    }

    @Test func dynamicSchemasBuiltAtRunTime() throws {
        let fields = ["title": 40, "author": 20]
        let schema = GenerationSchema.object(properties: fields.keys.sorted().map { .property($0, .string(maxLength: fields[$0]!)) })
        let content = try GeneratedContent(json: #"{"author":"Ann","title":"Quotes"}"#, schema: schema)
        #expect(try content.property("title")?.string() == "Quotes")
        #expect(throws: GuidedJSONError.self) {
            try GeneratedContent(json: #"{"author":"Ann"}"#, schema: schema)
        }
    }

    /// Guided decoding of the Generable schema always yields a decodable Cat.
    @Test func guidedDecodingOfCatAlwaysDecodes() throws {
        let (tokens, end) = SyntheticVocabulary.make(size: 2000, seed: 3)
        let vocabulary = try TokenVocabulary(tokens: tokens, endOfGenerationTokens: [end])
        var mask = TokenMask(tokenCount: vocabulary.count)
        for seed in 0..<15 {
            var random = SplitMix64(seed: UInt64(seed))
            var constraint = try TokenConstraint(schema: Cat.generationSchema, vocabulary: vocabulary)
            var text: [UInt8] = []
            while !constraint.isFinished {
                constraint.computeMask(into: &mask)
                let allowed = mask.allowedTokens
                try #require(!allowed.isEmpty, "dead end after \(String(decoding: text, as: UTF8.self))")
                let token = allowed[Int(random.next() % UInt64(allowed.count))]
                if token == end { break }
                try constraint.accept(token)
                text += tokens[token]
            }
            let cat = try Cat(generatedJSON: String(decoding: text, as: UTF8.self))
            #expect((0...20).contains(cat.age) && cat.toys.count <= 3 && (1...12).contains(cat.name.unicodeScalars.count))
        }
        var constraint = try TokenConstraint(schema: Cat.generationSchema, vocabulary: vocabulary)
        #expect(throws: GuidedJSONError.self) { try constraint.accept(vocabulary.tokens.firstIndex(of: Array("[".utf8))!) }
    }
}
