// cloud-bench: the cloud plugin's speed figures (`make bench-cloud`).
//
//  1. SSE + JSON parse throughput (MB per CPU second) of recorded-shape Gemini and OpenAI streams,
//     through the same SSEParser, JSON parser (JSONModel) and dialect decoders the plugin runs.
//     Target: >= 50 MB/s. Beside it, the same with payloads through the stream parser (JSONModel's
//     plain path), in alternating rounds of the same run, and the ratio.
//  2. Event latency (p50, p99): from the mock server writing an event (its wall-clock stamp is
//     the event's text) to the host's stream callback, over TLS on loopback. Target: p50 <= 1 ms.
//
// Usage: cloud-bench --mock Tests/MockCloudServer/mock_server.py [--events N]
import CloudHTTPSCore
import CTandemABI
import Foundation
import JSONModel
import TandemBridge
import TandemPluginKit

struct Options {
    var mockScript = "Tests/MockCloudServer/mock_server.py"
    var events = 2000

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--mock": mockScript = iterator.next() ?? mockScript
            case "--events": events = iterator.next().flatMap(Int.init) ?? events
            default:
                FileHandle.standardError.write(Data("unknown argument \(argument)\nusage: cloud-bench --mock PATH [--events N]\n".utf8))
                exit(2)
            }
        }
    }
}

// MARK: - Parse throughput

/// A stream of `count` events shaped like the dialect's real ones.
func syntheticStream(_ dialect: DialectKind, count: Int) -> [UInt8] {
    var text = ""
    for i in 0..<count {
        let delta = "token \(i) of a streamed answer, with some “unicode” and \\\"escapes\\\" "
        switch dialect {
        case .gemini:
            let finish = i == count - 1 ? #","finishReason":"STOP""# : ""
            text += #"data: {"candidates":[{"content":{"role":"model","parts":[{"text":"\#(delta)"}]}\#(finish),"index":0}],"usageMetadata":{"promptTokenCount":17,"candidatesTokenCount":\#(i),"totalTokenCount":\#(17 + i)},"modelVersion":"gemini-2.5-flash","responseId":"abcdef123456"}"# + "\r\n\r\n"
        case .openai:
            text += #"data: {"id":"chatcmpl-abc123","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini-2024-07-18","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"\#(delta)"},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"x1y2"}"# + "\n\n"
        }
    }
    if dialect == .openai {
        text += #"data: {"id":"chatcmpl-abc123","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini-2024-07-18","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\ndata: [DONE]\n\n"
    }
    return Array(text.utf8)
}

/// How one SSE event's JSON payload becomes a value.
enum PayloadParse: String, CaseIterable {
    /// `JSONValue(parsing:)`, as the plugin parses: the whole-document fast path.
    case document
    /// The stream parser fed the payload in one go, as `JSONValue(parsing:)` did before its fast path.
    case stream

    func parse(_ bytes: [UInt8]) throws -> JSONValue {
        switch self {
        case .document:
            return try JSONValue(parsing: bytes, keepingNumberText: true)
        case .stream:
            var parser = JSONStreamParser(keepingNumberText: true)
            try parser.feed(bytes)
            return try parser.finish()
        }
    }
}

/// Parses the whole stream in 16 KiB reads, as the transport delivers it; returns the events seen.
func parseOnce(_ bytes: [UInt8], dialect: any CloudDialect, payload: PayloadParse) throws -> Int {
    var parser = SSEParser()
    var decoder = dialect.makeDecoder(streamed: true)
    var produced = 0
    var done = false
    try bytes.withUnsafeBufferPointer { all in
        var offset = 0
        while offset < all.count {
            let end = min(all.count, offset + 16 * 1024)
            _ = try parser.feed(UnsafeBufferPointer(rebasing: all[offset..<end])) { (event: SSEEvent) throws in
                if decoder.isEndMarker(event) { done = true; return }
                produced += try decoder.decode(try payload.parse(event.data)).count
            }
            offset = end
        }
    }
    _ = try decoder.finish(endMarkerSeen: done, strayText: parser.strayText)
    return produced
}

/// This thread's CPU time in microseconds: other work on a shared machine does not count
/// against the parse, as wall-clock time would.
func threadCPUMicroseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}

/// MB per CPU second of each payload parse, best of 7 rounds that alternate between them.
func parseThroughput(_ kind: DialectKind) throws -> [PayloadParse: Double] {
    let dialect: any CloudDialect = kind == .gemini
        ? GeminiDialect(model: "gemini-2.5-flash", baseURL: "https://x", embeddingModel: "e", embeddingDimensions: nil)
        : OpenAIDialect(model: "m", baseURL: "https://x", maxTokensField: .maxCompletionTokens, embeddingModel: "e", embeddingDimensions: nil)
    let bytes = syntheticStream(kind, count: 20_000)
    var best: [PayloadParse: Int64] = [:]
    for payload in PayloadParse.allCases { _ = try parseOnce(bytes, dialect: dialect, payload: payload) }  // warm-up
    for _ in 0..<7 {
        for payload in PayloadParse.allCases {
            let start = threadCPUMicroseconds()
            let events = try parseOnce(bytes, dialect: dialect, payload: payload)
            precondition(events == 20_000, "expected 20000 text events, got \(events)")
            best[payload] = min(best[payload] ?? .max, threadCPUMicroseconds() - start)
        }
    }
    let megabytes = Double(bytes.count) / 1_048_576
    return best.mapValues { megabytes / (Double(max($0, 1)) / 1_000_000) }
}

// MARK: - Event latency against the mock

final class LatencyProbe {
    var latenciesMicroseconds: [Double] = []
    var badEvents = 0
}

func realtimeNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

func startMock(_ script: String) throws -> (process: Process, stdin: Pipe, port: Int, ca: String) {
    let workdir = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script, "--workdir", workdir.path]
    var environment = ProcessInfo.processInfo.environment
    environment["MOCK_API_KEY"] = "bench-key"
    process.environment = environment
    let stdin = Pipe(), stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    var line: [UInt8] = []
    while let byte = stdout.fileHandleForReading.readData(ofLength: 1).first, byte != 0x0A { line.append(byte) }
    guard let json = try? JSONValue(parsing: line),
          let port = json["port"]?.integerValue.map(Int.init), let ca = json["ca"]?.stringValue
    else { throw BenchError("the mock server did not start (\(String(decoding: line, as: UTF8.self)))") }
    return (process, stdin, port, ca)
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func eventLatency(_ kind: DialectKind, port: Int, ca: String, events: Int) throws -> [Double] {
    setenv("TANDEM_BENCH_KEY", "bench-key", 1)
    var values = PluginSettings([
        "dialect": kind.rawValue, "model": kind == .gemini ? "gemini-2.5-flash" : "gpt-4o-mini",
        "base_url": "https://127.0.0.1:\(port)/mock/bench.\(UUID().uuidString.prefix(8))/\(kind == .gemini ? "v1beta" : "v1")",
        "ca_file": ca, "api_key_env": "TANDEM_BENCH_KEY",
    ])
    let model = CloudModel(settings: try CloudSettings(&values))
    let probe = LatencyProbe()
    var stream = tandem_stream(
        struct_size: UInt32(MemoryLayout<tandem_stream>.size), user_data: Unmanaged.passUnretained(probe).toOpaque(),
        on_event: { user, event in
            let now = realtimeNanoseconds()
            let probe = Unmanaged<LatencyProbe>.fromOpaque(user!).takeUnretainedValue()
            guard let event, event.pointee.kind == TANDEM_EVENT_TEXT, let text = String(validating: event.pointee.text),
                  let stamp = Int64(text.split(separator: " ").first ?? "") else {
                if event?.pointee.kind == TANDEM_EVENT_TEXT { probe.badEvents += 1 }
                return TANDEM_CONTINUE
            }
            probe.latenciesMicroseconds.append(Double(now - stamp) / 1000)
            return TANDEM_CONTINUE
        })
    let request = BackendRequest(messages: [.user("bench")], options: BackendOptions(maxTokens: events))
    _ = try model.generate(request, events: PluginEventSink(&stream), cancellation: PluginCancellation(nil))
    guard probe.badEvents == 0, probe.latenciesMicroseconds.count == events else {
        throw BenchError("expected \(events) stamped events, got \(probe.latenciesMicroseconds.count) (\(probe.badEvents) unreadable)")
    }
    return probe.latenciesMicroseconds
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

// MARK: - Main

let options = Options(CommandLine.arguments)
do {
    for kind in DialectKind.allCases {
        let throughput = try parseThroughput(kind)
        let document = throughput[.document]!, stream = throughput[.stream]!
        print(String(format: "cloud parse %@: SSE+JSON+decode %.1f MB/s of CPU time (target >= 50) %@; with the stream parser %.1f MB/s (document path %.2fx)",
                     kind.rawValue, document, document >= 50 ? "ok" : "BELOW TARGET", stream, document / stream))
    }
    let mock = try startMock(options.mockScript)
    defer { try? mock.stdin.fileHandleForWriting.close(); mock.process.waitUntilExit() }
    for kind in DialectKind.allCases {
        _ = try eventLatency(kind, port: mock.port, ca: mock.ca, events: 50)  // warm-up
        let sorted = try eventLatency(kind, port: mock.port, ca: mock.ca, events: options.events).sorted()
        let p50 = percentile(sorted, 0.5) / 1000, p99 = percentile(sorted, 0.99) / 1000
        print(String(format: "cloud event latency %@ (%d events, TLS loopback): p50 %.3f ms, p99 %.3f ms (target p50 <= 1) %@",
                     kind.rawValue, sorted.count, p50, p99, p50 <= 1 ? "ok" : "BELOW TARGET"))
    }
} catch {
    FileHandle.standardError.write(Data("cloud-bench: \(error)\n".utf8))
    exit(1)
}
