import Testing
import GuidedJSON
import JSONModel

/// Guided decoding end to end over a synthetic vocabulary: random walks, reference comparison,
/// and continuations that must be masked.
@Suite struct TokenMaskTests {
    /// A cat with an enum field, a bounded integer, a bounded string, a nested bounded array of
    /// objects, an optional number, and an anyOf. Every string and array is bounded, so every
    /// walk ends.
    static let schema = GenerationSchema.object(properties: [
        .property("name", .string(minLength: 1, maxLength: 12)),
        .property("mood", .string(anyOf: ["happy", "grumpy", "sleepy"])),
        .property("age", .integer(in: 0...20)),
        .property("toys", .array(of: .object(properties: [
            .property("kind", .string(maxLength: 8)),
            .optional("price", .number(in: -2.5...99.75)),
            .property("new", .boolean()),
        ]), count: 1...3)),
        .optional("nickname", .anyOf([.string(maxLength: 5), .null])),
        .property("debt", .integer(in: -1500 ... -30)),
        .property("tag", .string(maxLength: 14, pattern: #"^[A-Z][a-zé]*-\d{2,3}$"#)),
        .optional("email", .string(maxLength: 24, pattern: #"[^@\s"]+@[a-z]+\.(com|org)"#)),
    ])

    static let vocabulary: TokenVocabulary = {
        let (tokens, end) = SyntheticVocabulary.make(size: 3000, seed: 7)
        return try! TokenVocabulary(tokens: tokens, endOfGenerationTokens: [end])
    }()

    /// Generates one document by choosing random allowed tokens; returns its bytes and the states seen.
    static func randomWalk(_ automaton: JSONAutomaton, seed: UInt64, maxSteps: Int = 600) -> (text: [UInt8], states: [JSONAutomatonState], ended: Bool) {
        var random = SplitMix64(seed: seed)
        var state = automaton.initialState
        var text: [UInt8] = []
        var states: [JSONAutomatonState] = []
        var mask = TokenMask(tokenCount: vocabulary.count)
        for _ in 0..<maxSteps {
            states.append(state)
            vocabulary.computeMask(automaton, state: state, into: &mask)
            let allowed = mask.allowedTokens
            if allowed.isEmpty { return (text, states, false) }
            let end = vocabulary.endOfGenerationTokens[0]
            if mask.contains(end), allowed.count == 1 || random.next() % 2 == 0 { return (text, states, true) }
            let choices = allowed.filter { $0 != end }
            let token = choices[Int(random.next() % UInt64(choices.count))]
            #expect(automaton.advance(&state, bytes: vocabulary.tokens[token]))
            text += vocabulary.tokens[token]
        }
        return (text, states, false)
    }

    @Test func randomWalksAlwaysProduceValidDocuments() throws {
        let automaton = try JSONAutomaton(schema: Self.schema)
        for seed in 0..<40 {
            let walk = Self.randomWalk(automaton, seed: UInt64(seed))
            let text = String(decoding: walk.text, as: UTF8.self)
            #expect(walk.ended, "walk \(seed) did not reach the end token: \(text)")
            let value = try JSONValue(parsing: walk.text)
            #expect(Self.schema.violations(of: value) == [], "walk \(seed): \(text)")
        }
    }

    @Test func trieWalkMatchesTheReferenceOnRandomStates() throws {
        let automaton = try JSONAutomaton(schema: Self.schema)
        var checked = 0
        for seed in 100..<106 {
            let walk = Self.randomWalk(automaton, seed: UInt64(seed))
            for (index, state) in walk.states.enumerated() where index % 3 == 0 {
                let fast = Self.vocabulary.mask(automaton, state: state)
                let reference = Self.vocabulary.referenceMask(automaton, state: state)
                #expect(fast == reference, "seed \(seed) step \(index): \(fast.allowedCount) vs \(reference.allowedCount) after \(String(decoding: walk.text, as: UTF8.self))")
                checked += 1
            }
        }
        #expect(checked > 50)
    }

    /// The mask after the given prefix.
    func allowed(after prefix: String) throws -> (JSONAutomaton, TokenMask) {
        let automaton = try JSONAutomaton(schema: Self.schema)
        var state = automaton.initialState
        #expect(automaton.advance(&state, bytes: Array(prefix.utf8)), "prefix \(prefix) rejected")
        return (automaton, Self.vocabulary.mask(automaton, state: state))
    }

    func id(_ text: String) -> Int {
        Self.vocabulary.tokens.firstIndex(of: Array(text.utf8))!
    }

    @Test func invalidContinuationsAreMasked() throws {
        let end = Self.vocabulary.endOfGenerationTokens[0]
        var (_, mask) = try allowed(after: "")
        #expect(mask.contains(id("{\"")) && mask.contains(id("{")))
        #expect(!mask.contains(id("[")) && !mask.contains(id(" \"")) && !mask.contains(end) && !mask.contains(0))

        (_, mask) = try allowed(after: "{")
        #expect(mask.contains(id("\"name")) && !mask.contains(id("\"age")) && !mask.contains(id("}")))

        (_, mask) = try allowed(after: #"{"name":""#)
        #expect(!mask.contains(id("\"")), "minLength 1: the string cannot close yet")
        #expect(mask.contains(id("naïve")) && mask.contains(id("日本")) && mask.contains(id("\\n")))
        #expect(!mask.contains(id("\n")), "raw control characters are not JSON")

        (_, mask) = try allowed(after: #"{"name":"abcdefghijkl"#)  // 12 characters: maxLength reached
        #expect(mask.contains(id("\",")) && !mask.contains(id("a")) && !mask.contains(id("\\n")))

        (_, mask) = try allowed(after: #"{"name":"x","mood":""#)
        #expect(!mask.contains(id("\"")) && !mask.contains(id("x")))
        #expect(mask.contains(id("happy")) && mask.contains(id("\"happy\"")) == false)

        (_, mask) = try allowed(after: #"{"name":"x","mood":"happy","age":"#)
        #expect(mask.contains(id("7")) && mask.contains(id("20")) && mask.contains(id("0")))
        #expect(!mask.contains(id("-1")) && !mask.contains(id("99")) && !mask.contains(id("100")) && !mask.contains(id("0.")))

        (_, mask) = try allowed(after: #"{"name":"x","mood":"happy","age":2"#)
        #expect(mask.contains(id("0")) && !mask.contains(id("7")) && mask.contains(id(",")))

        (_, mask) = try allowed(after: #"{"name":"x","mood":"happy","age":0"#)
        #expect(!mask.contains(id("0")) && mask.contains(id(",")))

        (_, mask) = try allowed(after: #"{"name":"x","mood":"happy","age":3,"toys":["#)
        #expect(!mask.contains(id("]")) && mask.contains(id("{\"")), "minItems 1")

        let three = #"{"kind":"a","new":true}"#
        (_, mask) = try allowed(after: #"{"name":"x","mood":"happy","age":3,"toys":["# + [three, three, three].joined(separator: ","))
        #expect(!mask.contains(id(",")) && mask.contains(id("],")) && mask.contains(id("]")), "maxItems 3")

        (_, mask) = try allowed(after: #"{"name":"x","mood":"happy","age":3,"toys":[{"kind":"a","price":"#)
        #expect(mask.contains(id("-1")) && mask.contains(id("99")) && mask.contains(id("1.25")) && !mask.contains(id("100")))

        (_, mask) = try allowed(after: #"{"name":"x","mood":"happy","age":3,"toys":[{"kind":"a","price":99.7"#)
        #expect(mask.contains(id("5")) && !mask.contains(id("7")) && !mask.contains(id("e5")))

        (_, mask) = try allowed(after: #"{"name":"x","mood":"happy","age":3,"toys":[{"kind":"a","new":false}],"#)
        #expect(mask.contains(id("\"nickname\":")) && mask.contains(id("\"")) && !mask.contains(id("\"name")))

        (_, mask) = try allowed(after: #"{"name":"x","mood":"happy","age":3,"toys":[{"kind":"a","new":false}],"debt":-"#)
        #expect(mask.contains(id("1")) && mask.contains(id("345")) && mask.contains(id("12")) && !mask.contains(id("0")))

        (_, mask) = try allowed(after: #"{"name":"x","mood":"happy","age":3,"toys":[{"kind":"a","new":false}],"debt":-30,"tag":""#)
        #expect(mask.contains(id("A")) && !mask.contains(id("a")) && !mask.contains(id("name")))

        (_, mask) = try allowed(after: #"{"name":"x","mood":"happy","age":3,"toys":[{"kind":"a","new":false}],"debt":-30,"tag":"Ab-12"#)
        #expect(mask.contains(id("\",")) && mask.contains(id("7")) && !mask.contains(id("12")))

        let (automaton, final) = try allowed(after: #"{"name":"x","mood":"happy","age":3,"toys":[{"kind":"a","new":false}],"debt":-30,"tag":"Z-99","email":"a@b.org"}"#)
        #expect(final.allowedTokens == [end])
        _ = automaton
    }

    @Test func rootNumbersMayEndOrContinue() throws {
        let automaton = try JSONAutomaton(schema: .integer(in: 0...150))
        var state = automaton.initialState
        #expect(automaton.advance(&state, bytes: Array("1".utf8)))
        let mask = Self.vocabulary.mask(automaton, state: state)
        #expect(mask.contains(Self.vocabulary.endOfGenerationTokens[0]))
        #expect(mask.contains(id("7")) && mask.contains(id("20")) && !mask.contains(id("345")) && !mask.contains(id("99")))
        #expect(mask == Self.vocabulary.referenceMask(automaton, state: state))
    }
}
