/// Measures `TokenVocabulary.computeMask` on a model's vocabulary, for `make bench` and for
/// tuning. The schema is the 3-field-plus object of the acceptance test (an enum, a bounded
/// integer, a bounded string) with free-text and pattern fields, so pruned states, string states
/// (where most tokens stay allowed) and pattern states (walked in full) are all covered.
public enum TokenMaskBenchmark {
    public struct Measurement: Sendable, CustomStringConvertible {
        /// What the state is ("free string", "enum", ...).
        public var name: String
        /// Tokens allowed in that state.
        public var allowedCount: Int
        /// Best-of-repetitions time of one mask computation, in microseconds.
        public var microseconds: Double

        public var description: String {
            "\(name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(String(allowedCount).leftPadded(to: 6)) allowed  \(formatted(microseconds)) µs"
        }
    }

    public static let schema = GenerationSchema.object(properties: [
        .property("mood", .string(anyOf: ["happy", "grumpy", "sleepy", "curious"])),
        .property("age", .integer(in: 0...20)),
        .property("name", .string(minLength: 1, maxLength: 24)),
        .property("story", .string()),
        .property("scores", .array(of: .number(in: 0...1), maxItems: 4)),
        .property("email", .string(maxLength: 40, pattern: #"^[a-z0-9.]+@[a-z]+\.(com|org)$"#)),
        .property("motto", .string(pattern: "^[^0-9]*$")),
    ])

    /// The states measured: the text generated so far under `schema`, by name.
    public static let states: [(name: String, prefix: String)] = [
        ("document start", ""),
        ("first key", "{"),
        ("enum value", #"{"mood":""#),
        ("integer value", #"{"mood":"happy","age":1"#),
        ("bounded string (24 chars left)", #"{"mood":"happy","age":3,"name":""#),
        ("bounded string (3 chars left)", #"{"mood":"happy","age":3,"name":"Whiskers the Bold Ca"#),
        ("free string", #"{"mood":"happy","age":3,"name":"Tom","story":"Once upon a"#),
        ("number in [0, 1]", #"{"mood":"happy","age":3,"name":"Tom","story":"x","scores":[0.2"#),
        ("pattern string (email)", #"{"mood":"happy","age":3,"name":"Tom","story":"x","scores":[],"email":"ann"#),
        ("pattern string (no digits)", #"{"mood":"happy","age":3,"name":"Tom","story":"x","scores":[],"email":"a@b.org","motto":"Carpe"#),
        ("after the last value", #"{"mood":"happy","age":3,"name":"Tom","story":"x","scores":[],"email":"a@b.org","motto":""}"#),
    ]

    /// Times each state of `states` (`repetitions` times, best kept) on `vocabulary`.
    public static func run(vocabulary: TokenVocabulary, repetitions: Int = 50) throws -> [Measurement] {
        let automaton = try JSONAutomaton(schema: schema)
        var mask = TokenMask(tokenCount: vocabulary.count)
        let clock = ContinuousClock()
        return try states.map { name, prefix in
            var state = automaton.initialState
            guard automaton.advance(&state, bytes: Array(prefix.utf8)) else {
                throw GuidedJSONError(.invalidSchema, "benchmark prefix \(prefix) does not fit the benchmark schema")
            }
            var best = Duration.seconds(1000)
            for _ in 0..<repetitions {
                let elapsed = clock.measure { vocabulary.computeMask(automaton, state: state, into: &mask) }
                best = min(best, elapsed)
            }
            let components = best.components
            let microseconds = Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12
            return Measurement(name: name, allowedCount: mask.allowedCount, microseconds: microseconds)
        }
    }

    /// The time to build the vocabulary index (tries and bit sets), in milliseconds.
    public static func buildMilliseconds(tokens: [[UInt8]], endOfGenerationTokens: [Int]) throws -> Double {
        var result: Result<TokenVocabulary, any Error>?
        let elapsed = ContinuousClock().measure {
            result = Result { try TokenVocabulary(tokens: tokens, endOfGenerationTokens: endOfGenerationTokens) }
        }
        _ = try result!.get()
        let components = elapsed.components
        return Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15
    }

    private static func formatted(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return String(rounded).leftPadded(to: 8)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }
}
