import Foundation
import Tandem
import Testing

/// `make bench-llama-plugin` (part of `make bench`): decoding speed through the ABI on the real
/// model, unguided and guided by a schema, at 1 thread and at every core, best of `runs`. Not part
/// of `make test`: a speed target is checked here, never by a timed unit test.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["TANDEM_BENCH"] != nil))
struct ThroughputBenchmark {
    static let runs = 3
    static let tokens = 96
    /// A long free string keeps the guided run going as long as the unguided one.
    static let storySchema = #"{"type": "object", "properties": {"title": {"type": "string", "maxLength": 40}, "story": {"type": "string", "minLength": 600, "maxLength": 2000}}, "required": ["title", "story"]}"#

    struct Figures { var promptTokens = 0; var firstTokenMilliseconds = 0.0; var decodeRate = 0.0; var outputTokens = 0 }

    /// Time to the first text event (the prompt's template prefix is cached from the run before);
    /// decode rate over the tokens after it.
    static func measure(_ backend: PluginBackend, schema: String?) throws -> Figures {
        var best = Figures()
        for run in 0..<runs {
            let request = BackendRequest(
                messages: [Message(role: .user, content: "Run \(run): write a long story about a lighthouse keeper and a storm.")],
                options: BackendOptions(sampling: .greedy, maxTokens: tokens, responseSchema: schema))
            let start = ContinuousClock.now
            var first: ContinuousClock.Instant?
            let result = try backend.generate(request, cancellation: CancellationToken()) { event in
                if case .text = event, first == nil { first = .now }
                return true
            }
            let end = ContinuousClock.now
            guard let first, result.usage.outputTokens > 1 else { continue }
            let decode = (end - first) / .seconds(1)
            let figures = Figures(
                promptTokens: result.usage.promptTokens, firstTokenMilliseconds: (first - start) / .milliseconds(1),
                decodeRate: Double(result.usage.outputTokens - 1) / decode, outputTokens: result.usage.outputTokens)
            if figures.decodeRate > best.decodeRate { best = figures }
        }
        return best
    }

    @Test(arguments: [1, ProcessInfo.processInfo.activeProcessorCount])
    func guidedDecodingKeepsPace(threads: Int) throws {
        let backend = try RunnerPlugin.open(["threads": "\(threads)"])
        _ = try backend.collect(BackendRequest(messages: [Message(role: .user, content: "Hi")], options: BackendOptions(maxTokens: 1)))  // load
        let plain = try Self.measure(backend, schema: nil)
        let guided = try Self.measure(backend, schema: Self.storySchema)
        let ratio = guided.decodeRate / plain.decodeRate
        print(String(format: "tandem.llama bench: threads %d | first token %.1f ms (%d-token prompt) | decode unguided %.1f t/s (%d tokens) | guided %.1f t/s (%d tokens) | guided/unguided %.2f (target >= 0.70)",
                     threads, plain.firstTokenMilliseconds, plain.promptTokens, plain.decodeRate, plain.outputTokens, guided.decodeRate, guided.outputTokens, ratio))
        #expect(plain.outputTokens > 10 && guided.outputTokens > 10)
    }

    /// Availability is cheap: opening a model reads the header (once per file state, no
    /// weights), later availability calls only `stat` the file.
    @Test func availabilityCost() throws {
        let clock = ContinuousClock()
        var backend: PluginBackend?
        let open = try clock.measure { backend = try RunnerPlugin.open() }
        var cached = Duration.seconds(1)
        for _ in 0..<20 { cached = min(cached, clock.measure { _ = backend!.availability(locale: "en") }) }
        print("tandem.llama bench: open (header read) \(open), availability afterwards \(cached)")
    }
}
