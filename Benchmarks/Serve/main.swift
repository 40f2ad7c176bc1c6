import CCurl
import Foundation
import Synchronization
import Tandem

// `make bench-serve`: `tandem serve` on tandem.fake (in-process, concurrent calls) against the
// same request routed in this process. Prints requests/s and p50/p99 latency at 1, 8 and 32
// concurrent clients (each on its own keep-alive connection, through libcurl), and what the
// HTTP server adds per request at 1 client.
// Usage: tandem-bench-serve PLUGINS_DIR TANDEM_BINARY [REQUESTS_PER_LEVEL]

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: tandem-bench-serve PLUGINS_DIR TANDEM_BINARY [REQUESTS_PER_LEVEL]\n".utf8))
    exit(2)
}
let pluginsDirectory = URL(fileURLWithPath: arguments[1]).standardizedFileURL.path
let tandemBinary = arguments[2]
let requestsPerLevel = arguments.count > 3 ? Int(arguments[3]) ?? 2000 : 2000
let prompt = "the quick brown fox jumps over the lazy dog again and again"
let settings = ["kind": "local", "model_version": "bench-1", "concurrent": "true"]

/// Percentiles of latencies in microseconds.
struct Latencies {
    var values: [Double] = []
    func percentile(_ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1000 }

// ---- In-process: the same request through the router, one at a time ----
let catalog = PluginLoader(directory: pluginsDirectory).load()
guard let fake = catalog.plugin(id: "tandem.fake") else {
    FileHandle.standardError.write(Data("bench: tandem.fake is not in \(pluginsDirectory) (run make plugins)\n".utf8))
    exit(1)
}
let model = HybridModel(primary: LanguageModel(try fake.openModel(backendID: "local", settings: settings)))
var inProcess = Latencies()
for round in 0..<(requestsPerLevel + requestsPerLevel / 10) {
    let start = now()
    let response = try await LanguageModelSession(model: model).respond(to: prompt)
    precondition(response.content == prompt)
    if round >= requestsPerLevel / 10 { inProcess.values.append(now() - start) }
}

// ---- The server ----
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-bench-serve-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let config: [String: Any] = [
    "plugins_dir": pluginsDirectory, "primary": "local",
    "backends": ["local": ["plugin": "tandem.fake", "isolation": "in-process", "settings": settings]],
]
let configPath = folder.appendingPathComponent("tandem.json").path
try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: configPath))
let server = Process()
server.executableURL = URL(fileURLWithPath: tandemBinary)
server.arguments = ["--config", configPath, "serve", "--port", "0"]
let errors = Pipe()
server.standardError = errors
try server.run()
defer { server.terminate(); server.waitUntilExit() }

// The port from the "listening on" line.
var port = 0
var seen = ""
while port == 0 {
    let data = errors.fileHandleForReading.availableData
    guard !data.isEmpty else { fatalError("tandem serve ended before listening: \(seen)") }
    seen += String(decoding: data, as: UTF8.self)
    if let range = seen.range(of: #"listening on http://[^:]+:(\d+)"#, options: .regularExpression) {
        port = Int(seen[range].split(separator: ":").last!)!
    }
}
// Keep draining stderr (one log line per request) so the server never blocks on it.
Thread.detachNewThread { while !errors.fileHandleForReading.availableData.isEmpty {} }

let url = "http://127.0.0.1:\(port)/v1/chat/completions"
let body = #"{"model": "local", "messages": [{"role": "user", "content": "\#(prompt)"}]}"#

/// One client: a libcurl handle, so its connection is kept alive between requests.
final class Client {
    let handle = curl_easy_init()!
    var headers: UnsafeMutablePointer<curl_slist>?
    init(url: String, body: String) {
        headers = curl_slist_append(nil, "Content-Type: application/json")
        _ = tandem_curl_setopt_pointer(handle, CURLOPT_URL, url)
        _ = tandem_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headers)
        _ = tandem_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, body)
        _ = tandem_curl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION) { _, size, count, _ in size * count }
    }
    /// One request; its latency in microseconds, or nil when it did not succeed.
    func request() -> Double? {
        let start = now()
        guard curl_easy_perform(handle) == CURLE_OK else { return nil }
        var status = 0
        _ = tandem_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return status == 200 ? now() - start : nil
    }
    deinit {
        curl_slist_free_all(headers)
        curl_easy_cleanup(handle)
    }
}

curl_global_init(Int(CURL_GLOBAL_DEFAULT))
print("tandem serve bench: tandem.fake in-process (12-token echo), \(requestsPerLevel) requests per level, keep-alive")
var servedOneClientP50 = 0.0
for clients in [1, 8, 32] {
    let results = Mutex((latencies: Latencies(), failures: 0))
    let perClient = requestsPerLevel / clients
    let group = DispatchGroup()
    let start = now()
    for _ in 0..<clients {
        group.enter()
        Thread.detachNewThread { [url, body] in
            let client = Client(url: url, body: body)
            _ = client.request()  // connects; not counted
            var mine: [Double] = []
            var failed = 0
            for _ in 0..<perClient {
                if let latency = client.request() { mine.append(latency) } else { failed += 1 }
            }
            results.withLock {
                $0.latencies.values += mine
                $0.failures += failed
            }
            group.leave()
        }
    }
    group.wait()
    let (latencies, failures) = results.withLock { $0 }
    let seconds = (now() - start) / 1e6
    let rate = Double(latencies.values.count) / seconds
    if clients == 1 { servedOneClientP50 = latencies.percentile(0.5) }
    print(String(format: "  %2d clients: %7.0f requests/s  p50 %7.1f µs  p99 %7.1f µs  errors %d",
                 clients, rate, latencies.percentile(0.5), latencies.percentile(0.99), failures))
}
print(String(format: "  in-process routing (LanguageModelSession.respond): p50 %.1f µs  p99 %.1f µs",
             inProcess.percentile(0.5), inProcess.percentile(0.99)))
print(String(format: "  added by the HTTP server per request (1 client, p50): %.1f µs", servedOneClientP50 - inProcess.percentile(0.5)))
