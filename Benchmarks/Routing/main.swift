import Foundation
import Tandem

// `make bench`: routing overhead of the host (session + router + executor thread + plugin
// bridge) over a direct C ABI call to the same fake plugin, in the same run (plugin load time
// is `tandem-bench-plugin-load`). Usage: tandem-bench-routing [PLUGINS_DIR] [ITERATIONS]
// With `isolation PLUGINS_DIR MODEL [ITERATIONS] [RUNS]`: what a child process costs a backend.

let arguments = CommandLine.arguments
if arguments.count > 3, arguments[1] == "isolation" {
    try IsolationBench.run(
        pluginsDirectory: arguments[2], modelPath: arguments[3], iterations: arguments.count > 4 ? Int(arguments[4]) ?? 2000 : 2000,
        llamaRuns: arguments.count > 5 ? Int(arguments[5]) ?? 3 : 3)
    exit(0)
}
let pluginsDirectory = arguments.count > 1 ? arguments[1] : "plugins.d"
let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000
let warmUp = iterations / 10

let catalog = PluginLoader(directory: pluginsDirectory).load()
guard let fake = catalog.plugin(id: "tandem.fake") else {
    FileHandle.standardError.write(Data("bench: tandem.fake is not in \(catalog.directory) (run make plugins)\n".utf8))
    exit(1)
}

let prompt = "the quick brown fox jumps over the lazy dog again and again"  // 12 tokens echoed back
let settings = ["kind": "local", "model_version": "bench-1"]
let direct = DirectCall(model: try fake.openRawModel(settings: settings), request: BackendRequest(messages: [.user(prompt)]))
let local = LanguageModel(try fake.openModel(backendID: "local", settings: settings))
let cloud = LanguageModel(try fake.openModel(backendID: "cloud", settings: ["kind": "cloud"]))
let model = HybridModel(mode: .preferLocal, local: local, cloud: cloud)

var directFull = Samples(), directFirst = Samples(), hostFull = Samples(), hostFirst = Samples()
for round in 0..<(warmUp + iterations) {
    let measured = round >= warmUp
    let (first, total) = direct.run()

    let respondStart = Clock.nanoseconds()
    let response = try await LanguageModelSession(model: model).respond(to: prompt)
    let respondEnd = Clock.nanoseconds()
    precondition(response.content == prompt && response.servedBy == "local")

    let streamStart = Clock.nanoseconds()
    var firstSnapshot: UInt64 = 0
    for try await _ in LanguageModelSession(model: model).streamResponse(to: prompt) where firstSnapshot == 0 {
        firstSnapshot = Clock.nanoseconds()
    }
    if measured {
        directFull.add(total)
        directFirst.add(first)
        hostFull.add(respondEnd - respondStart)
        hostFirst.add(firstSnapshot - streamStart)
    }
}

func row(_ name: String, _ host: Samples, _ direct: Samples) -> String {
    name.padding(toLength: 21, withPad: " ", startingAt: 0) + String(
        format: " direct p50 %7.1f µs  p99 %7.1f µs | host p50 %7.1f µs  p99 %7.1f µs | overhead p50 %6.1f µs  p99 %6.1f µs",
        direct.p50, direct.p99, host.p50, host.p99, host.p50 - direct.p50, host.p99 - direct.p99)
}
print("Tandem routing overhead: \(iterations) requests (after \(warmUp) warm-up), tandem.fake, \(prompt.split(separator: " ").count)-token echo")
print(row("full response", hostFull, directFull))
print(row("first streamed event", hostFirst, directFirst))
let overhead = max(hostFull.p50 - directFull.p50, hostFirst.p50 - directFirst.p50)
print(String(format: "target overhead <= 50 µs at p50: %@ (%.1f µs)", overhead <= 50 ? "met" : "NOT MET", overhead))
