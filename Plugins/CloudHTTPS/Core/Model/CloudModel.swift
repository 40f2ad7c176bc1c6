import CTandemABI
import Glibc
import JSONModel
import TandemBridge
import TandemPluginKit

/// A cloud model behind the plugin ABI: one dialect, one endpoint, one key source.
///
/// Every call runs on the caller's thread with its own libcurl session, so calls may overlap.
/// A call retries what `RetryPolicy` allows, within the total deadline (the `total_timeout_ms`
/// setting, shortened per request by the `cloud.deadline_ms` option extra), and every failure
/// leaving it is scrubbed of the key.
public final class CloudModel: PluginModel {
    public let settings: CloudSettings
    public let dialect: any CloudDialect
    public let info: ModelInfo
    private let routes: NetworkRoutes
    /// Test seam for the retry jitter; random in production.
    private let jitter: @Sendable () -> Double
    /// The wait the last 429 asked for (tests give it a clock they move by hand).
    public let cooldown: RateLimitCooldown

    public init(
        settings: CloudSettings, routes: NetworkRoutes = .system, jitter: (@Sendable () -> Double)? = nil,
        cooldown: RateLimitCooldown = RateLimitCooldown()
    ) {
        self.settings = settings
        self.routes = routes
        self.jitter = jitter ?? { Double.random(in: 0..<1) }
        self.cooldown = cooldown
        let dimensions = settings.requestEmbeddingDimensions ? settings.embeddingDimensions : nil
        switch settings.dialect {
        case .gemini:
            dialect = GeminiDialect(model: settings.model, baseURL: settings.endpoint.baseURL, embeddingModel: settings.embeddingModel, embeddingDimensions: dimensions)
        case .openai:
            dialect = OpenAIDialect(model: settings.model, baseURL: settings.endpoint.baseURL, maxTokensField: settings.maxTokensField, embeddingModel: settings.embeddingModel, embeddingDimensions: dimensions)
        }
        var capabilities: ModelCapabilities = [.guidedJSON, .tools, .embeddings, .concurrentCalls, .thinking]
        if settings.stream { capabilities.insert(.streaming) }
        if settings.dialect == .gemini { capabilities.insert(.tokenCounting) }
        info = ModelInfo(
            id: settings.model, displayName: settings.displayName, kind: .cloud, capabilities: capabilities,
            contextLength: settings.contextLength, embeddingDimensions: settings.embeddingDimensions)
    }

    // MARK: Availability

    public func availability(locale: String?) -> Availability {
        do {
            _ = try settings.key.resolve()
        } catch {
            return .unavailable(.notConfigured, detail: error.message)
        }
        if !settings.endpoint.isLoopback && !routes.hasNonLoopbackRoute {
            return .unavailable(.offline, detail: "this machine has no network route besides loopback")
        }
        return cooldown.availability ?? .available
    }

    // MARK: Generation

    /// A 429 with a delay that leaves the call (not waited out by a retry) starts the cooldown;
    /// while it lasts, a call fails at once with `rateLimited` and the time left.
    public func generate(_ request: BackendRequest, events: PluginEventSink, cancellation: PluginCancellation) throws(BackendFailure) -> BackendResult {
        var key: String?
        do {
            try Self.checkNotCancelled(cancellation)
            if let refusal = cooldown.refusal() { throw refusal }
            key = try settings.key.resolve()
            let httpRequest = try dialect.generateRequest(request, stream: settings.stream, credential: key)
            let deadline = try self.deadline(for: request.options)
            let session = try CurlSession()
            return try cancellation.withWaker({ session.wake() }) { () throws(BackendFailure) -> BackendResult in
                var delivered = false
                let outcome = try withRetries(session: session, deadline: deadline, cancellation: cancellation, outputDelivered: { delivered }) { () throws(BackendFailure) -> GenerationOutcome in
                    let receiver = GenerationReceiver(
                        streamed: settings.stream, decoder: dialect.makeDecoder(streamed: settings.stream), events: events,
                        cancellation: cancellation, maxBodyBytes: settings.maxResponseBytes)
                    defer { delivered = delivered || receiver.delivered }
                    let transfer = try session.perform(
                        httpRequest, caFile: settings.caFile, timeouts: settings.timeouts, deadline: deadline,
                        cancellation: cancellation, receiver: receiver)
                    if let head = transfer.head, head.status != 200 {
                        throw HTTPFailureMapper.failure(status: head.status, headers: head.headers, body: receiver.body)
                    }
                    return try receiver.finish()
                }
                if let usage = outcome.usage, outcome.finish != .callback {
                    _ = events.send(.usage(usage))
                }
                return BackendResult(finish: outcome.finish, modelVersion: outcome.modelVersion, usage: outcome.usage ?? Usage())
            }
        } catch {
            let failure = Self.scrub(error, secret: key)
            cooldown.record(failure)
            throw failure
        }
    }

    // MARK: Embeddings, token counts, models

    public func embed(_ texts: [String], cancellation: PluginCancellation) throws(BackendFailure) -> [[Float]] {
        if texts.isEmpty { return [] }
        let vectors: [[Float]] = try jsonCall(cancellation: cancellation) { (key: String?) throws(BackendFailure) in
            try dialect.embedRequest(texts, credential: key)
        } decode: { (json: JSONValue) throws(BackendFailure) in
            try dialect.decodeEmbeddings(json, count: texts.count)
        }
        for (index, vector) in vectors.enumerated() where vector.count != settings.embeddingDimensions {
            throw BackendFailure(.decoding, "embedding \(index) has \(vector.count) dimensions; embedding_dimensions is \(settings.embeddingDimensions)")
        }
        return vectors
    }

    public func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int {
        try jsonCall(cancellation: PluginCancellation(nil)) { (key: String?) throws(BackendFailure) in
            guard let http = try dialect.countTokensRequest(request, credential: key) else {
                throw BackendFailure(.unsupportedOption, "the \(settings.dialect.rawValue) protocol cannot count tokens")
            }
            return http
        } decode: { (json: JSONValue) throws(BackendFailure) in
            try dialect.decodeTokenCount(json)
        }
    }

    /// The model ids the server lists (GET models).
    public func listModels(cancellation: PluginCancellation = PluginCancellation(nil)) throws(BackendFailure) -> [String] {
        try jsonCall(cancellation: cancellation) { (key: String?) throws(BackendFailure) in
            dialect.listModelsRequest(credential: key)
        } decode: { (json: JSONValue) throws(BackendFailure) in
            try dialect.decodeModelList(json)
        }
    }

    private func jsonCall<T>(
        cancellation: PluginCancellation, build: (String?) throws(BackendFailure) -> HTTPRequest,
        decode: (JSONValue) throws(BackendFailure) -> T
    ) throws(BackendFailure) -> T {
        var key: String?
        do {
            try Self.checkNotCancelled(cancellation)
            key = try settings.key.resolve()
            let httpRequest = try build(key)
            let deadline = Deadline(afterMilliseconds: settings.totalTimeoutMilliseconds)
            let session = try CurlSession()
            return try cancellation.withWaker({ session.wake() }) { () throws(BackendFailure) -> T in
                try withRetries(session: session, deadline: deadline, cancellation: cancellation, outputDelivered: { false }) { () throws(BackendFailure) -> T in
                    let receiver = JSONReceiver(maxBodyBytes: settings.maxResponseBytes)
                    let transfer = try session.perform(
                        httpRequest, caFile: settings.caFile, timeouts: settings.timeouts, deadline: deadline,
                        cancellation: cancellation, receiver: receiver)
                    guard let head = transfer.head else { throw BackendFailure(.serverError, "no response") }
                    guard head.status == 200 else {
                        throw HTTPFailureMapper.failure(status: head.status, headers: head.headers, body: receiver.body)
                    }
                    return try decode(try receiver.json())
                }
            }
        } catch {
            throw Self.scrub(error, secret: key)
        }
    }

    // MARK: Retries, deadlines, secrets

    private func withRetries<T>(
        session: CurlSession, deadline: Deadline, cancellation: PluginCancellation, outputDelivered: () -> Bool,
        attempt body: () throws(BackendFailure) -> T
    ) throws(BackendFailure) -> T {
        var attempt = 1
        while true {
            do throws(BackendFailure) {
                try Self.checkNotCancelled(cancellation)
                return try body()
            } catch {
                guard let wait = settings.retry.delay(
                    after: error, attempt: attempt, outputDelivered: outputDelivered(),
                    remainingMilliseconds: deadline.remainingMilliseconds, jitter: jitter())
                else { throw error }
                PluginExport.log(TANDEM_LOG_INFO, "\(info.id): \(error.status.name) (HTTP \(error.httpStatus)); retrying in \(wait) ms (attempt \(attempt + 1) of \(settings.retry.maxAttempts))")
                try session.sleep(milliseconds: wait, cancellation: cancellation)
                attempt += 1
            }
        }
    }

    /// A token cancelled before a call (or between attempts) ends it before anything else
    /// happens: no key lookup, no request.
    private static func checkNotCancelled(_ cancellation: PluginCancellation) throws(BackendFailure) {
        if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled before the request was sent") }
    }

    /// The call's deadline: the setting, or a shorter per-request `cloud.deadline_ms` extra.
    private func deadline(for options: BackendOptions) throws(BackendFailure) -> Deadline {
        var total = settings.totalTimeoutMilliseconds
        if let text = options.extras["cloud.deadline_ms"] {
            guard let value = Int64(text), value > 0 else {
                throw BackendFailure(.invalidArgument, "option cloud.deadline_ms: expected a positive integer, got \(HTTPFailureMapper.clip(text))")
            }
            total = min(total, value)
        }
        return Deadline(afterMilliseconds: total)
    }

    /// A server may quote what it received; whatever it said, the key never leaves the plugin.
    static func scrub(_ error: any Error, secret: String?) -> BackendFailure {
        // PluginCancellation.withWaker rethrows untyped; only BackendFailure is ever thrown inside.
        let failure = error as? BackendFailure ?? BackendFailure(.unknown, "\(error)")
        guard let secret, !secret.isEmpty, failure.message.contains(secret) else { return failure }
        var clean = failure
        clean.message = failure.message.replacing(secret, with: "[redacted]")
        return clean
    }
}
