import Foundation
import Tandem
import TandemServer

/// `tandem serve`: the router as an OpenAI-compatible HTTP server (Sources/TandemServer) until
/// SIGTERM or Ctrl-C, which stop accepting, let in-flight requests finish up to the drain
/// timeout, and exit.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "serve the router over HTTP as an OpenAI-compatible API (chat completions, embeddings, models)"
    static let arguments = "[--host ADDRESS] [--port N] [--api-key-env VAR] [limits]"
    static let options: [OptionSpec] = [
        .option("host", "ADDRESS", "IPv4 or IPv6 address to bind (default 127.0.0.1; any other than loopback needs --api-key-env)"),
        .option("port", "N", "TCP port (default 8080; 0 picks a free one)"),
        .option("api-key-env", "VAR", "environment variable holding the API key clients must send as Authorization: Bearer"),
        .option("max-body-bytes", "N", "largest request body (default 4194304)"),
        .option("max-messages", "N", "most messages in one chat request (default 1000)"),
        .option("request-timeout", "S", "longest a request may take, queueing included, before 504 (default 300)"),
        .option("idle-timeout", "S", "close a connection idle this many seconds (default 30)"),
        .option("max-connections", "N", "connections open at once (default 512)"),
        .option("queue-depth", "N", "requests that may wait for a one-at-a-time backend before 429 (default 64)"),
        .option("drain-timeout", "S", "after SIGTERM, how long in-flight requests may finish (default 30)"),
    ]
    static let discussion = """
        Routes: POST /v1/chat/completions (stream, tools, response_format, reasoning_effort),
        POST /v1/embeddings, GET /v1/models, GET /health (no key needed). The request's model is
        "tandem" (the config's routing), a mode name (prefer-local, ...) or a backend id; the answer's
        model is the serving model's version, its "tandem" member and the X-Tandem-Served-By and
        X-Tandem-Model-Version headers say who served. One line per request goes to stderr; the key
        is never written.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        var configuration = ServerConfiguration()
        configuration.host = arguments.string("host") ?? configuration.host
        if let port = try arguments.integer("port") {
            guard (0...65535).contains(port) else { throw UsageError(name, "--port: \(port) is outside 0...65535") }
            configuration.port = UInt16(port)
        }
        if let variable = arguments.string("api-key-env") {
            guard let key = ProcessInfo.processInfo.environment[variable], !key.isEmpty else {
                throw UsageError(name, "--api-key-env \(variable): the variable is not set or empty")
            }
            configuration.apiKey = key
        }
        func positive(_ option: String) throws -> Int? {
            guard let value = try arguments.integer(option) else { return nil }
            guard value >= 1 else { throw UsageError(name, "--\(option): expected at least 1, got \(value)") }
            return value
        }
        func seconds(_ option: String) throws -> Double? {
            guard let value = try arguments.double(option) else { return nil }
            guard value > 0 else { throw UsageError(name, "--\(option): expected a positive number of seconds, got \(value)") }
            return value
        }
        configuration.maxBodyBytes = try positive("max-body-bytes") ?? configuration.maxBodyBytes
        configuration.maxMessages = try positive("max-messages") ?? configuration.maxMessages
        configuration.requestTimeoutSeconds = try seconds("request-timeout") ?? configuration.requestTimeoutSeconds
        configuration.idleTimeoutSeconds = try positive("idle-timeout") ?? configuration.idleTimeoutSeconds
        configuration.maxConnections = try positive("max-connections") ?? configuration.maxConnections
        configuration.queueDepth = try positive("queue-depth") ?? configuration.queueDepth
        configuration.drainTimeoutSeconds = try seconds("drain-timeout") ?? configuration.drainTimeoutSeconds
        if let problem = AccessPolicy(apiKey: configuration.apiKey).bindProblem(host: configuration.host) {
            throw UsageError(name, problem)
        }

        let host = try context.host()
        for (id, failure) in host.openFailures.sorted(by: { $0.key < $1.key }) {
            Terminal.log("warning: backend \(id) not opened: \(failure.message)")
        }
        let server = ModelServer(host: host, configuration: configuration)
        let port: UInt16
        do {
            port = try server.start()
        } catch {
            Terminal.error(error.description)
            return .failure
        }
        let shown = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        Terminal.log("tandem serve: listening on http://\(shown):\(port)\(configuration.apiKey == nil ? "" : " (API key required)")")

        let signal = await ShutdownSignal.next()
        Terminal.log("tandem serve: \(signal): draining (up to \(configuration.drainTimeoutSeconds) s)")
        let cancelled = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: server.shutdown()) }
        }
        Terminal.log("tandem serve: stopped\(cancelled > 0 ? " (\(cancelled) request(s) cancelled at the drain deadline)" : "")")
        return .success
    }
}

/// SIGTERM or SIGINT, whichever comes first, as an awaitable event.
enum ShutdownSignal {
    /// Kept for the life of the process.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static func next() async -> String {
        await withCheckedContinuation { continuation in
            let once = OnceFlag()
            for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number)
                source.setEventHandler { if once.claim() { continuation.resume(returning: name) } }
                source.resume()
                sources.append(source)
            }
            // Ctrl-C was routed to `Interrupt` by main; hand it here while serving.
            Interrupt.onInterrupt { if once.claim() { continuation.resume(returning: "SIGINT") } }
        }
    }
}

/// True for the first caller only.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false
    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }
}
