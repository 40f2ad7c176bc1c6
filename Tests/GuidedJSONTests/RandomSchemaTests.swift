import Testing
import GuidedJSON
import JSONModel

/// Random schemas, random guided walks: every document that reaches the end token parses and
/// validates, no state is a dead end, and the trie mask equals the reference mask.
@Suite struct RandomSchemaTests {
    static func randomSchema(_ random: inout SplitMix64, depth: Int = 0) -> GenerationSchema {
        func pick(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        switch random.next() % (depth >= 2 ? 6 : 9) {
        case 0:
            let minimum = pick(0...3)
            return .string(minLength: minimum, maxLength: minimum + pick(0...8))
        case 1:
            return .string(anyOf: ["a", "ab", "é\"", "b\\c", ""].filter { _ in random.next() % 2 == 0 } + ["z"])
        case 2:
            let low = pick(-2000...2000)
            return .integer(minimum: low, maximum: low + pick(0...3000))
        case 3:
            let low = Double(pick(-500...500)) / 8
            return .number(minimum: low, maximum: low + Double(pick(0...400)) / 4)
        case 4: return .boolean()
        case 5: return .string(maxLength: pick(4...12), pattern: ["^[a-c]+$", "x|y", "^\\d{2}-[A-Z]?$", "^é*b$"][pick(0...3)])
        case 6:
            let minimum = pick(0...2)
            return .array(of: randomSchema(&random, depth: depth + 1), minItems: minimum, maxItems: minimum + pick(0...2))
        case 7:
            return .anyOf([randomSchema(&random, depth: depth + 1), .null])
        default:
            return .object(properties: (0..<pick(0...4)).map { index in
                let schema = randomSchema(&random, depth: depth + 1)
                return random.next() % 3 == 0 ? .optional("p\(index)", schema) : .property("p\(index)", schema)
            })
        }
    }

    @Test func randomSchemasYieldValidDocumentsAndExactMasks() throws {
        let (tokens, end) = SyntheticVocabulary.make(size: 1500, seed: 5)
        let vocabulary = try TokenVocabulary(tokens: tokens, endOfGenerationTokens: [end])
        var random = SplitMix64(seed: 2024)
        var mask = TokenMask(tokenCount: vocabulary.count)
        var compiled = 0
        for _ in 0..<60 {
            let schema = Self.randomSchema(&random)
            let automaton: JSONAutomaton
            do {
                automaton = try JSONAutomaton(schema: schema)
            } catch let error as GuidedJSONError where error.code == .unsupportedGuide || error.code == .invalidSchema {
                continue  // e.g. anyOf of an optional with null, a pattern longer than its maxLength
            }
            compiled += 1
            for walk in 0..<3 {
                var state = automaton.initialState
                var text: [UInt8] = []
                var step = 0
                while true {
                    vocabulary.computeMask(automaton, state: state, into: &mask)
                    if step % 5 == 0 {
                        #expect(mask == vocabulary.referenceMask(automaton, state: state), "\(schema.jsonSchemaText) after \(String(decoding: text, as: UTF8.self))")
                    }
                    let allowed = mask.allowedTokens
                    try #require(!allowed.isEmpty, "dead end: \(schema.jsonSchemaText) after \(String(decoding: text, as: UTF8.self))")
                    let token = allowed.contains(end) && (allowed.count == 1 || random.next() % 3 == 0)
                        ? end : allowed.filter { $0 != end }[Int(random.next() % UInt64(allowed.count - (allowed.contains(end) ? 1 : 0)))]
                    if token == end { break }
                    #expect(automaton.advance(&state, bytes: tokens[token]))
                    text += tokens[token]
                    step += 1
                    try #require(step < 2000, "no end after 2000 tokens")
                }
                let value = try JSONValue(parsing: text)
                #expect(schema.violations(of: value) == [], "walk \(walk) of \(schema.jsonSchemaText): \(String(decoding: text, as: UTF8.self))")
            }
        }
        #expect(compiled >= 40)
    }
}
