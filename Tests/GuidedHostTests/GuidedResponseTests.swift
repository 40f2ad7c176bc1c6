import GuidedJSON
import Testing
import Tandem

/// `respond(to:generating:)` and `respond(to:schema:)` on scripted fake outputs: the host
/// validates every final document, whatever the backend sent.
@Suite struct GuidedResponseTests {
    @Test func validScriptedOutputDecodesToTheTypedValue() async throws {
        let session = try FakePlugin.session(["guided_reply": #"{"city": "Bern", "sky": "rainy", "celsius": -3}"#])
        let answer = try await session.respond(to: "Weather in Bern tomorrow?", generating: Forecast.self)
        #expect(answer.content == Forecast(city: "Bern", sky: .rainy, celsius: -3))
        #expect(answer.rawContent.value == ["city": "Bern", "sky": "rainy", "celsius": -3])
        #expect(answer.servedBy == "local")
        #expect(answer.response.rawResponse.modelVersion == "local-v1")
        // The exchange joins the transcript as the model wrote it.
        #expect(session.transcript.entries.last == .response(
            #"{"city": "Bern", "sky": "rainy", "celsius": -3}"#, servedBy: "local", modelVersion: "local-v1"))
    }

    @Test func outputOutsideTheSchemaIsADecodingFailureWithItsPath() async throws {
        let session = try FakePlugin.session(["guided_reply": #"{"city": "Bern", "sky": "foggy", "celsius": 61}"#])
        let error = await #expect(throws: TandemError.self) {
            try await session.respond(to: "Weather?", generating: Forecast.self)
        }
        #expect(error?.code == .decodingFailure)
        #expect(error?.guided?.code == .validationFailed)
        #expect(error?.guided?.violations.map(\.path.description) == ["$.sky", "$.celsius"])
        #expect(error?.message.contains("local") == true, "names the backend whose answer failed")
        #expect(session.transcript.entries.isEmpty, "a failed request leaves no trace")
        #expect(!session.isResponding)
    }

    @Test func textThatIsNotJSONIsADecodingFailure() async throws {
        let session = try FakePlugin.session(["guided_reply": "Sure! Here is the forecast: sunny."])
        let error = await #expect(throws: TandemError.self) {
            try await session.respond(to: "Weather?", generating: Forecast.self)
        }
        #expect(error?.code == .decodingFailure)
        #expect(error?.guided?.code == .syntax)
        #expect(error?.guided?.byteOffset == 0)
    }

    @Test func truncatedScriptedOutputIsADecodingFailure() async throws {
        let session = try FakePlugin.session(["guided_reply": #"{"city": "Bern", "sky": "sunny""#])
        let error = await #expect(throws: TandemError.self) {
            try await session.respond(to: "Weather?", generating: Forecast.self)
        }
        #expect(error?.code == .decodingFailure)
        #expect(error?.guided?.code == .truncated)
    }

    @Test func maximumTokensCuttingTheDocumentIsATruncationWithTheFinishReason() async throws {
        let session = try FakePlugin.session(["guided_reply": #"{"city": "Bern", "sky": "rainy", "celsius": -3}"#])
        let error = await #expect(throws: TandemError.self) {
            try await session.respond(
                to: "Weather?", generating: Forecast.self, options: .local(GenerationOptions(maximumResponseTokens: 3)))
        }
        #expect(error?.code == .decodingFailure)
        #expect(error?.guided?.code == .truncated)
        #expect(error?.message.contains("maxTokens") == true)
    }

    @Test func schemaBuiltAtRunTimeGivesValidatedContent() async throws {
        let schema = GenerationSchema.object(properties: [
            .property("tags", .array(of: .string(anyOf: ["red", "green", "blue"]), count: 1...3)),
            .optional("note", .string(maxLength: 10)),
        ])
        let session = try FakePlugin.session(["guided_reply": #"{"tags": ["red", "blue"]}"#])
        let answer = try await session.respond(to: "Pick colours", schema: schema)
        #expect(try answer.content.property("tags")?.elements().map { try $0.string() } == ["red", "blue"])
        #expect(try answer.content.property("note") == nil)

        let tooMany = try FakePlugin.session(["guided_reply": #"{"tags": ["red", "blue", "red", "green"]}"#])
        let error = await #expect(throws: TandemError.self) { try await tooMany.respond(to: "Pick colours", schema: schema) }
        #expect(error?.guided?.violations.first?.path.description == "$.tags")
    }

    @Test func schemaNestedBeyondTheBoundIsRejectedBeforeAnyCall() async throws {
        var schema = GenerationSchema.string()
        for _ in 0..<GenerationSchema.maximumDepth + 1 { schema = .object(properties: [.property("inner", schema)]) }
        // Were the backend called, it would fail with serverError.
        let session = try FakePlugin.session(["error": "serverError", "guided_reply": "{}"])
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: "Deep", schema: schema) }
        #expect(error?.code == .unsupportedGuide)
        #expect(error?.guided?.code == .schemaTooDeep)
        #expect(error?.guided?.path?.description.hasPrefix("$.properties.inner.properties.inner") == true)
        #expect(error?.failure == nil)
        #expect(!session.isResponding)
    }

    @Test func aDecoderThatRejectsValidatedContentIsADecodingFailure() async throws {
        // The schema allows any integer; the type accepts only even ones.
        struct Even: Generable {
            var value: Int
            static var generationSchema: GenerationSchema { .object(properties: [.property("value", .integer())]) }
            init(_ content: GeneratedContent) throws {
                value = try content.value(forProperty: "value")
                guard value % 2 == 0 else { throw GuidedJSONError(.decodingFailure, "odd", path: content.path.appending(key: "value")) }
            }
        }
        let session = try FakePlugin.session(["guided_reply": #"{"value": 3}"#])
        let error = await #expect(throws: TandemError.self) { try await session.respond(to: "Even?", generating: Even.self) }
        #expect(error?.code == .decodingFailure)
        #expect(error?.guided?.path?.description == "$.value")
        #expect(session.transcript.entries.isEmpty)
    }
}
