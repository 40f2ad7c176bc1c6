import Foundation
import Tandem

/// `make bench-isolation`: what a child process costs a backend (`"isolation": "process"`
/// against `"in-process"`): the time to the first streamed event on tandem.fake, and decoding
/// tokens/s of the real model on tandem.llama. Runs alternate between the two modes so that a
/// busy machine slows both alike. Targets: at most 100 µs added to the first event at p50,
/// at most 5% fewer tokens/s.
enum IsolationBench {
    static func run(pluginsDirectory: String, modelPath: String, iterations: Int, llamaRuns: Int) throws {
        let catalog = PluginLoader(directory: pluginsDirectory).load()
        func plugin(_ id: String) throws -> LoadedPlugin {
            guard let plugin = catalog.plugin(id: id) else { throw BenchFailure("\(id) is not in \(catalog.directory) (run make plugins)") }
            return plugin
        }
        func pair(_ id: String, _ settings: [String: String]) throws -> [(String, any Backend)] {
            let plugin = try plugin(id)
            return [("in-process", try plugin.openModel(backendID: "bench", settings: settings)),
                    ("process", try ProcessBackend.open(backendID: "bench", plugin: plugin.identity, settings: settings))]
        }

        // First event: a one-word reply, so the time is the call's round trip and nothing else.
        let fake = try pair("tandem.fake", ["reply": "hello"])
        let short = BackendRequest(messages: [.user("hi")])
        var first = [Samples(), Samples()]
        for round in 0..<(iterations + iterations / 10) {
            for (index, (_, backend)) in fake.enumerated() {
                let start = Clock.nanoseconds()
                var at: UInt64 = 0
                _ = try backend.generate(short, cancellation: CancellationToken()) { _ in
                    if at == 0 { at = Clock.nanoseconds() }
                    return true
                }
                if round >= iterations / 10 { first[index].add(at - start) }
            }
        }
        print("Isolation: first streamed event, tandem.fake, \(iterations) calls per mode")
        for (index, (name, _)) in fake.enumerated() {
            print("  \(name.padding(toLength: 10, withPad: " ", startingAt: 0))" + String(format: " p50 %7.1f µs  p99 %7.1f µs", first[index].p50, first[index].p99))
        }
        let added = first[1].p50 - first[0].p50
        print(String(format: "  added by the child at p50: %.1f µs (target <= 100 µs: %@)", added, added <= 100 ? "met" : "NOT MET"))

        // Decoding speed of the real model: output tokens over the time from the first event to the end.
        let llama = try pair("tandem.llama", ["model": modelPath, "context": "1024"])
        let long = BackendRequest(
            messages: [.user("Write a long story about a lighthouse keeper and the sea.")],
            options: BackendOptions(sampling: .greedy, maxTokens: 128))
        var rates: [[Double]] = [[], []]
        for _ in 0..<llamaRuns {
            for (index, (_, backend)) in llama.enumerated() {
                var firstAt: UInt64 = 0
                let result = try backend.generate(long, cancellation: CancellationToken()) { _ in
                    if firstAt == 0 { firstAt = Clock.nanoseconds() }
                    return true
                }
                let seconds = Double(Clock.nanoseconds() - firstAt) / 1e9
                rates[index].append(Double(result.usage.outputTokens - 1) / seconds)
            }
        }
        print("Isolation: decoding, tandem.llama on \(modelPath), 128 tokens greedy, median of \(llamaRuns) runs per mode")
        let medians = rates.map { $0.sorted()[$0.count / 2] }
        for (index, (name, _)) in llama.enumerated() {
            print("  \(name.padding(toLength: 10, withPad: " ", startingAt: 0))" + String(format: " %6.1f tokens/s", medians[index]))
        }
        let loss = (1 - medians[1] / medians[0]) * 100
        print(String(format: "  isolated vs in-process: %+.1f%% tokens/s (target >= -5%%: %@)", -loss, loss <= 5 ? "met" : "NOT MET"))
    }

    struct BenchFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
