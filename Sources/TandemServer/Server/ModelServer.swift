import Foundation
import Synchronization
import Tandem

/// `tandem serve`: the host's router behind an OpenAI-compatible HTTP API. Each request gets
/// its own conversation (the client sends the whole of it) and its own cancellation token,
/// cancelled when the client hangs up, when the request's time runs out, or at shutdown.
///
/// Routes: `POST /v1/chat/completions`, `POST /v1/embeddings`, `GET /v1/models`, `GET /health`.
///
/// - Note: Thread-safe. `start`, then `shutdown` once.
public final class ModelServer: HTTPHandler, @unchecked Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    let configuration: ServerConfiguration
    let directory: ModelDirectory
    let access: AccessPolicy
    let inFlight = InFlightRequests()
    let hangUps = HangUpWatcher()
    private var daemon: HTTPDaemon?

    public init(host: TandemHost, configuration: ServerConfiguration) {
        self.configuration = configuration
        self.directory = ModelDirectory(host: host, queueDepth: configuration.queueDepth)
        self.access = AccessPolicy(apiKey: configuration.apiKey)
    }

    /// Checks the bind rule and starts listening; returns the port (the one chosen for port 0).
    public func start() throws(StartError) -> UInt16 {
        if let problem = access.bindProblem(host: configuration.host) { throw StartError(description: problem) }
        let daemon = HTTPDaemon(handler: self, limits: HTTPDaemon.Limits(
            maxBodyBytes: configuration.maxBodyBytes, maxConnections: configuration.maxConnections,
            idleTimeoutSeconds: configuration.idleTimeoutSeconds))
        do {
            try daemon.start(address: configuration.host, port: configuration.port)
        } catch {
            throw StartError(description: error.description)
        }
        self.daemon = daemon
        return daemon.port
    }

    /// Stops accepting, lets in-flight requests finish for up to `drainTimeoutSeconds`, cancels
    /// the rest, waits (briefly) for their responses to be sent, then closes every connection.
    /// Returns how many had to be cancelled.
    public func shutdown() -> Int {
        daemon?.stopAccepting()
        let cancelled = inFlight.drain(seconds: configuration.drainTimeoutSeconds)
        // A run ends as its handler returns, before libmicrohttpd has sent the response: closing
        // the connections then cut one finished answer in about twelve off (test_serve.py's drain test).
        daemon?.waitForOpenRequests(seconds: 5)
        daemon?.stop()
        return cancelled
    }

    // MARK: - HTTPHandler

    public func respond(to request: HTTPRequest, client: ClientConnection) -> HTTPResponse {
        let started = ContinuousClock.now
        let (response, servedBy) = route(request, client: client)
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        // Method, path, status, time and who served: never a header (the key is one) or a body.
        ServerLog.write("\(request.method) \(request.path) \(response.status) \(String(format: "%.1f", milliseconds)) ms\(servedBy.map { " servedBy=\($0)" } ?? "")")
        return response
    }

    public func bodyTooLarge(_ request: HTTPRequest, limit: Int) -> HTTPResponse {
        ServerLog.write("\(request.method) \(request.path) 413 body over \(limit) bytes")
        return Self.error(APIError(
            status: 413, type: "invalid_request_error", code: "request_too_large",
            message: "the request body is larger than this server's limit of \(limit) bytes", param: nil))
    }

    private func route(_ request: HTTPRequest, client: ClientConnection) -> (HTTPResponse, String?) {
        let routes: [(method: String, path: String)] = [
            ("POST", "/v1/chat/completions"), ("POST", "/v1/embeddings"), ("GET", "/v1/models"), ("GET", "/health"),
        ]
        guard routes.contains(where: { $0.path == request.path }) else {
            return (Self.error(APIError(status: 404, type: "invalid_request_error", code: "unknown_url",
                                        message: "no route \(request.method) \(request.path) (routes: \(routes.map { "\($0.method) \($0.path)" }.joined(separator: ", ")))", param: nil)), nil)
        }
        guard routes.contains(where: { $0.path == request.path && $0.method == request.method }) else {
            return (Self.error(APIError(status: 405, type: "invalid_request_error", code: "method_not_allowed",
                                        message: "\(request.path) does not take \(request.method)", param: nil)), nil)
        }
        if request.path == "/health" { return (health(), nil) }
        guard access.admits(authorization: request.header("authorization")) else {
            return (Self.error(APIError(status: 401, type: "authentication_error", code: "invalid_api_key",
                                        message: "missing or wrong API key (send Authorization: Bearer <key>)", param: nil)), nil)
        }
        if request.path == "/v1/models" { return (Self.json(200, ModelList.body(directory.servableNames)), nil) }

        let run = RequestRun()
        guard inFlight.begin(run) else {
            return (Self.error(APIError(status: 503, type: "server_error", code: "shutting_down",
                                        message: "the server is shutting down", param: nil), extraHeaders: [("Connection", "close")]), nil)
        }
        let watch = client.fd >= 0 ? hangUps.watch(fd: client.fd) { run.cancel(.clientGone) } : nil
        let finished = Finished()
        run.startDeadline(seconds: configuration.requestTimeoutSeconds) { finished.isSet }
        let end: @Sendable () -> Void = { [hangUps, inFlight] in
            finished.set()
            if let watch { hangUps.unwatch(watch) }
            inFlight.end(run)
        }
        do throws(APIError) {
            let body = try Self.parse(request.body)
            if request.path == "/v1/embeddings" {
                defer { end() }
                return try embeddings(body, run: run)
            }
            return try ChatExchange(server: self, request: ChatCompletionRequest(body: body, maxMessages: configuration.maxMessages), run: run, end: end).respond()
        } catch {
            end()
            return (Self.error(error), nil)
        }
    }

    private func health() -> HTTPResponse {
        var backends: JSONMembers = [:]
        for id in directory.models.keys.sorted() {
            let model = directory.models[id]!
            var entry: JSONMembers
            switch model.availability {
            case .available:
                entry = ["available": true]
            case .unavailable(let reason, let detail, let progress):
                entry = ["available": false, "reason": .string(reason.name), "detail": .string(detail)]
                if let progress { entry["progress"] = .number(progress) }
            }
            entry["kind"] = .string(model.kind.rawValue)
            if let queue = directory.queues[id] { entry["queued"] = .integer(Int64(queue.queued)) }
            backends[id] = .object(entry)
        }
        for (id, failure) in directory.host.openFailures {
            backends[id] = ["available": false, "reason": "notOpened", "detail": .string(failure.description)]
        }
        let status = inFlight.isDraining ? "draining" : "ok"
        return Self.json(200, ["status": .string(status), "inFlight": .integer(Int64(inFlight.count)), "backends": .object(backends)])
    }

    /// `model` to the hybrid model that serves it, or 404.
    func resolve(_ name: String) throws(APIError) -> HybridModel {
        switch directory.resolve(name) {
        case .model(let model): return model
        case .unservable(let reason):
            throw APIError(status: 404, type: "invalid_request_error", code: "model_not_found",
                           message: "model \"\(name)\" cannot be served with this config: \(reason)", param: "model")
        case .unknown:
            throw APIError(status: 404, type: "invalid_request_error", code: "model_not_found",
                           message: "model \"\(name)\" does not exist (models: \(directory.knownNames.joined(separator: ", ")))", param: "model")
        }
    }

    /// The error for a request whose run was cancelled: why it ended, or the router's error.
    func failure(_ error: TandemError, run: RequestRun) -> APIError {
        switch run.endedBy {
        case .deadline?:
            return APIError(status: 504, type: "timeout_error", code: "timeout",
                            message: "the request took longer than this server's limit of \(configuration.requestTimeoutSeconds) s and was cancelled", param: nil)
        case .shutdown?:
            return APIError(status: 503, type: "server_error", code: "shutting_down", message: "the server shut down before the answer was complete", param: nil)
        case .clientGone?:
            // Never received; the status (nginx's "client closed request") is for the log.
            return APIError(status: 499, type: "invalid_request_error", code: "client_closed",
                            message: "the client closed the connection; the generation was cancelled", param: nil)
        case nil:
            return APIError(error, retryAfterSeconds: configuration.retryAfterSeconds)
        }
    }

    private func embeddings(_ body: JSON, run: RequestRun) throws(APIError) -> (HTTPResponse, String?) {
        let request = try EmbeddingsRequest(body: body, maxInputs: configuration.maxEmbeddingInputs)
        let model = try resolve(request.model)
        let candidates = [model.primary] + (model.secondary.map { [$0] } ?? [])
        var reasons: [String] = []
        for candidate in candidates {
            guard candidate.info.capabilities.contains(.embeddings) else {
                reasons.append("\(candidate.id): no embeddings capability")
                continue
            }
            if case .unavailable(let reason, let detail, _) = candidate.availability {
                reasons.append("\(candidate.id): unavailable (\(reason): \(detail))")
                continue
            }
            let vectors: [[Float]]
            do {
                vectors = try candidate.backend.embed(request.inputs, cancellation: run.token)
            } catch {
                let attempt = RoutingAttempt(backendID: candidate.id, reason: .failed(error))
                throw failure(TandemError(error.status == .cancelled ? .cancelled : .backendFailure, "\(attempt)", primary: attempt, failure: error), run: run)
            }
            // Tokens as the fake and the cloud count them: not known here, so the word pieces.
            let tokens = request.inputs.reduce(0) { $0 + $1.split(whereSeparator: \.isWhitespace).count }
            var response = Self.json(200, request.response(vectors, model: candidate.info.id, promptTokens: tokens))
            response.headers += [("X-Tandem-Served-By", candidate.id), ("X-Tandem-Model-Version", candidate.info.id)]
            return (response, candidate.id)
        }
        throw APIError(status: 503, type: "server_error", code: "unavailable",
                       message: "no model may embed for \"\(request.model)\": \(reasons.joined(separator: "; "))", param: "model")
    }

    // MARK: - Encoding

    static func parse(_ body: [UInt8]) throws(APIError) -> JSON {
        guard !body.isEmpty else { throw APIError.invalid(nil, "the request body is empty; expected a JSON object", code: "invalid_json") }
        do {
            return try JSON(parsing: body)
        } catch {
            throw APIError.invalid(nil, "the request body is not valid JSON: \(error)", code: "invalid_json")
        }
    }

    static func json(_ status: Int, _ value: JSON, extraHeaders: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + extraHeaders, body: .bytes(Array(value.jsonText.utf8)))
    }

    static func error(_ error: APIError, extraHeaders: [(name: String, value: String)] = []) -> HTTPResponse {
        json(error.status, error.body, extraHeaders: error.headers + extraHeaders)
    }
}

/// A flag set once, read from any thread.
final class Finished: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}
