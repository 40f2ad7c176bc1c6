/// A primary model and an optional secondary that serves when the primary cannot, following
/// the fallback rules of README "Routing: who answers" (see `Router`). Mirrors Firebase AI Logic's hybrid
/// inference: the four named modes are compositions of two configured models.
///
/// - Note: Thread-safe and stateless between requests: each request is routed afresh.
public final class HybridModel: Sendable {
    public let primary: LanguageModel
    public let secondary: LanguageModel?
    public let fallbackPolicy: FallbackPolicy

    public init(primary: LanguageModel, secondary: LanguageModel? = nil, fallbackPolicy: FallbackPolicy = .default) {
        self.primary = primary
        self.secondary = secondary
        self.fallbackPolicy = fallbackPolicy
    }

    /// Composes a named mode from a local and a cloud model; the mode decides which is the
    /// primary and whether the other is used at all.
    public convenience init(
        mode: RoutingMode, local: LanguageModel, cloud: LanguageModel, fallbackPolicy: FallbackPolicy = .default
    ) {
        switch mode {
        case .preferLocal: self.init(primary: local, secondary: cloud, fallbackPolicy: fallbackPolicy)
        case .preferCloud: self.init(primary: cloud, secondary: local, fallbackPolicy: fallbackPolicy)
        case .localOnly: self.init(primary: local, fallbackPolicy: fallbackPolicy)
        case .cloudOnly: self.init(primary: cloud, fallbackPolicy: fallbackPolicy)
        }
    }

    /// Routes and runs one request, blocking the calling thread (run it off the cooperative
    /// pool; `LanguageModelSession` does). `onEvent` receives the output as it is produced and
    /// which model produced it; returning false stops the generation (not an error).
    public func generate(
        _ request: HybridRequest, cancellation: CancellationToken,
        onEvent: (RouteDecision, BackendEvent) -> Bool
    ) throws(TandemError) -> RoutedResult {
        try Router(model: self, request: request, cancellation: cancellation).run(onEvent: onEvent)
    }

    /// Routes and runs one request on a `BlockingExecutor` thread and collects its output: the
    /// text and, for a request that declares tools, the calls the model made. They are returned,
    /// not run (finish reason `toolCalls`): the caller runs them (a session with `tools` runs
    /// them itself). Cancelling the calling task, or `cancellation`, cancels the plugin call.
    public nonisolated(nonsending) func respond(
        to request: HybridRequest, cancellation: CancellationToken = CancellationToken(), executor: BlockingExecutor = .shared
    ) async throws(TandemError) -> Response {
        let outcome = await executor.run(cancelling: cancellation) { () -> Result<Response, TandemError> in
            var collector = OutputCollector()
            do throws(TandemError) {
                let routed = try self.generate(request, cancellation: cancellation) { _, event in
                    collector.add(event)
                    return true
                }
                return .success(collector.response(routed))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}

/// Everything one routed generation reads.
public struct HybridRequest: Hashable, Sendable {
    /// The whole conversation, oldest first; the serving side (primary or secondary) gets all of it.
    public var messages: [Message]
    public var tools: [ToolDeclaration]
    /// JSON Schema text the response must satisfy.
    public var responseSchema: String?
    /// BCP 47, or nil for any.
    public var locale: String?
    public var options: RequestOptions

    public init(
        messages: [Message], tools: [ToolDeclaration] = [], responseSchema: String? = nil, locale: String? = nil,
        options: RequestOptions = .default
    ) {
        self.messages = messages
        self.tools = tools
        self.responseSchema = responseSchema
        self.locale = locale
        self.options = options
    }

    /// The request a model of `kind` receives: its own side's options, plus the schema.
    func backendRequest(for kind: ModelKind) -> BackendRequest {
        var options = options.backendOptions(for: kind)
        options.responseSchema = responseSchema
        return BackendRequest(messages: messages, tools: tools, options: options, locale: locale)
    }
}

/// Which model serves, and what happened to the primary.
public struct RouteDecision: Sendable {
    public let servedBy: LanguageModel
    public let fallback: FallbackRecord
}

/// A finished routed generation (its output went through `onEvent`).
public struct RoutedResult: Sendable {
    public let decision: RouteDecision
    public let result: BackendResult
}
