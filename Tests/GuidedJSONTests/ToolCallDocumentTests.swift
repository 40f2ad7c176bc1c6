import Testing
import GuidedJSON
import JSONModel

@Suite struct ToolCallDocumentTests {
    static let tools = [
        ToolCallDocument.Tool(name: "get_weather", description: "Weather for a city", arguments: .object(properties: [
            .property("city", .string(minLength: 1, maxLength: 20)),
            .optional("unit", .string(anyOf: ["celsius", "fahrenheit"])),
        ])),
        ToolCallDocument.Tool(name: "get_time", arguments: .object(properties: [.property("zone", .integer(in: -12...14))])),
        ToolCallDocument.Tool(name: "get", arguments: .object(properties: [])),
    ]

    @Test func theAutomatonCommitsToOneToolByItsName() throws {
        let automaton = try JSONAutomaton(schema: ToolCallDocument.schema(for: Self.tools))
        func accepts(_ text: String) -> Bool {
            var state = automaton.initialState
            return automaton.advance(&state, bytes: Array(text.utf8)) && automaton.isComplete(state)
        }
        #expect(accepts(#"{"name":"get_weather","arguments":{"city":"Oslo","unit":"celsius"}}"#))
        #expect(accepts(#"{"name":"get_time","arguments":{"zone":-3}}"#))
        #expect(accepts(#"{"name":"get","arguments":{}}"#))
        #expect(!accepts(#"{"name":"get_time","arguments":{"city":"Oslo"}}"#), "arguments of another tool")
        #expect(!accepts(#"{"name":"get_time","arguments":{"zone":15}}"#))
        #expect(!accepts(#"{"name":"set_time","arguments":{}}"#), "an invented tool")
        #expect(!accepts(#"{"arguments":{},"name":"get"}"#))
    }

    @Test func randomToolCallsAlwaysValidate() throws {
        let schema = try ToolCallDocument.schema(for: Self.tools)
        let (tokens, end) = SyntheticVocabulary.make(size: 2000, seed: 11)
        let vocabulary = try TokenVocabulary(tokens: tokens, endOfGenerationTokens: [end])
        var mask = TokenMask(tokenCount: vocabulary.count)
        var names = Set<String>()
        for seed in 0..<30 {
            var random = SplitMix64(seed: UInt64(seed))
            var constraint = try TokenConstraint(schema: schema, vocabulary: vocabulary)
            var text: [UInt8] = []
            var step = 0
            while !constraint.isFinished {
                constraint.computeMask(into: &mask)
                if seed < 5, step % 4 == 0 {
                    #expect(mask == vocabulary.referenceMask(constraint.automaton, state: constraint.state))
                }
                step += 1
                let allowed = mask.allowedTokens.filter { $0 != end }
                try #require(!allowed.isEmpty)
                let token = allowed[Int(random.next() % UInt64(allowed.count))]
                try constraint.accept(token)
                text += tokens[token]
            }
            let call = try ToolCallDocument.call(in: JSONValue(parsing: text), tools: Self.tools)
            names.insert(call.name)
        }
        #expect(names.count == 3, "every tool gets called in 30 walks: \(names)")
    }

    @Test func readingACallNamesWhatIsWrong() throws {
        func failure(_ text: String) throws -> GuidedJSONError? {
            do {
                _ = try ToolCallDocument.call(in: JSONValue(parsing: text), tools: Self.tools)
                return nil
            } catch let error as GuidedJSONError {
                return error
            }
        }
        #expect(try failure(#"{"name":"fly","arguments":{}}"#)?.message == #"no tool is named "fly""#)
        #expect(try failure(#"{"name":"get_time","arguments":{"zone":99}}"#)?.path?.description == "$.arguments.zone")
        #expect(try failure(#"{"name":"get_time"}"#)?.code == .decodingFailure)
        #expect(throws: GuidedJSONError.self) { try ToolCallDocument.schema(for: [Self.tools[0], Self.tools[0]]) }
    }

    @Test func theModelMayAnswerInsteadWhenAllowed() throws {
        let automaton = try JSONAutomaton(schema: ToolCallDocument.schema(for: Self.tools, allowingAnswer: true))
        let answer = #"{"answer":"It is sunny."}"#
        var state = automaton.initialState
        #expect(automaton.advance(&state, bytes: Array(answer.utf8)) && automaton.isComplete(state))
        #expect(try ToolCallDocument.decision(in: JSONValue(parsing: answer), tools: Self.tools) == .answer("It is sunny."))
        let call = #"{"name":"get_time","arguments":{"zone":2}}"#
        #expect(try ToolCallDocument.decision(in: JSONValue(parsing: call), tools: Self.tools) == .call(name: "get_time", arguments: ["zone": 2]))
        var refused = try JSONAutomaton(schema: ToolCallDocument.schema(for: Self.tools)).initialState
        #expect(!(try JSONAutomaton(schema: ToolCallDocument.schema(for: Self.tools))).advance(&refused, bytes: Array(answer.utf8)))
    }

    @Test func objectAlternativesThatShareTheirFirstKeyAreUnsupported() {
        let ambiguous = GenerationSchema.anyOf([
            .object(properties: [.property("a", .integer())]),
            .object(properties: [.property("a", .string())]),
        ])
        #expect(throws: GuidedJSONError.self) { try JSONAutomaton(schema: ambiguous) }
    }
}
