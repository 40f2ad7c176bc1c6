import Testing
import GuidedJSON

/// Runs the mask benchmark over a 49,152-token synthetic vocabulary. It asserts what the figures
/// mean (each state's mask equals the reference), not how fast they are: speed is for `make bench`.
/// Run `swift test -c release --filter TokenMaskBenchmarkTests` to see release figures.
@Suite struct TokenMaskBenchmarkTests {
    @Test func benchmarkStatesMatchTheReferenceAndPrintFigures() throws {
        let (tokens, end) = SyntheticVocabulary.make(size: 49_152, seed: 1)
        let vocabulary = try TokenVocabulary(tokens: tokens, endOfGenerationTokens: [end])
        let automaton = try JSONAutomaton(schema: TokenMaskBenchmark.schema)
        for (name, prefix) in TokenMaskBenchmark.states {
            var state = automaton.initialState
            #expect(automaton.advance(&state, bytes: Array(prefix.utf8)), "\(name)")
            #expect(vocabulary.mask(automaton, state: state) == vocabulary.referenceMask(automaton, state: state), "\(name)")
        }
        let measurements = try TokenMaskBenchmark.run(vocabulary: vocabulary, repetitions: 5)
        #expect(measurements.count == TokenMaskBenchmark.states.count)
        print("token mask, synthetic vocabulary of \(tokens.count) tokens (build \(try TokenMaskBenchmark.buildMilliseconds(tokens: tokens, endOfGenerationTokens: [end])) ms):")
        for measurement in measurements { print("  \(measurement)") }
    }
}
