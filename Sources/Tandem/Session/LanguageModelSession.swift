import Synchronization

/// A conversation with a hybrid model, named after Foundation Models' `LanguageModelSession`.
/// It keeps the transcript; every request is routed afresh and the serving side receives the
/// whole conversation.
///
/// - Note: Thread-safe. One request at a time: a request that overlaps a running one fails
///   with `TandemError.Code.concurrentRequests`. Plugin calls run on `BlockingExecutor`
///   threads; cancelling the calling task (or dropping a stream) cancels the plugin call.
public final class LanguageModelSession: Sendable {
    public let model: HybridModel
    /// BCP 47 locale the requests are for, or nil for any.
    public let locale: String?
    private let executor: BlockingExecutor
    private let state: Mutex<State>

    private struct State {
        var transcript: Transcript
        var isResponding = false
    }

    public init(
        model: HybridModel, instructions: String? = nil, locale: String? = nil, executor: BlockingExecutor = .shared
    ) {
        self.model = model
        self.locale = locale
        self.executor = executor
        var transcript = Transcript()
        if let instructions, !instructions.isEmpty { transcript.append(.instructions(instructions)) }
        self.state = Mutex(State(transcript: transcript))
    }

    /// A session on one model alone (no secondary), as with Foundation Models' system model.
    public convenience init(model: LanguageModel, instructions: String? = nil, locale: String? = nil) {
        self.init(model: HybridModel(primary: model), instructions: instructions, locale: locale)
    }

    public var transcript: Transcript { state.withLock { $0.transcript } }
    public var isResponding: Bool { state.withLock { $0.isResponding } }

    /// Answers `prompt` in full.
    public func respond(to prompt: String, options: RequestOptions = .default) async throws(TandemError) -> Response {
        let request = try begin(prompt, options: options)
        let token = CancellationToken()
        let model = self.model
        let outcome = await executor.run(cancelling: token) { () -> Result<Response, TandemError> in
            var collector = OutputCollector()
            do throws(TandemError) {
                let routed = try model.generate(request, cancellation: token) { _, event in
                    collector.add(event)
                    return true
                }
                return .success(collector.response(routed))
            } catch {
                return .failure(error)
            }
        }
        end(prompt, outcome)
        return try outcome.get()
    }

    /// Answers `prompt` as a stream of snapshots, each holding all text so far; the last one
    /// carries the finished `Response`. Errors (including the routing ones) end the stream.
    public func streamResponse(
        to prompt: String, options: RequestOptions = .default
    ) -> AsyncThrowingStream<ResponseSnapshot, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ResponseSnapshot, any Error>.makeStream()
        let request: HybridRequest
        do {
            request = try begin(prompt, options: options)
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let token = CancellationToken()
        continuation.onTermination = { termination in
            if case .cancelled = termination { token.cancel() }
        }
        let model = self.model
        executor.submit { [self] in
            var collector = OutputCollector()
            let outcome: Result<Response, TandemError>
            do throws(TandemError) {
                let routed = try model.generate(request, cancellation: token) { decision, event in
                    collector.add(event)
                    guard case .text = event else { return true }
                    let snapshot = ResponseSnapshot(
                        content: collector.text, servedBy: decision.servedBy.id, fallback: decision.fallback, response: nil)
                    if case .terminated = continuation.yield(snapshot) { return false }
                    return true
                }
                outcome = .success(collector.response(routed))
            } catch {
                outcome = .failure(error)
            }
            end(prompt, outcome)
            switch outcome {
            case .success(let response):
                continuation.yield(ResponseSnapshot(
                    content: response.content, servedBy: response.servedBy, fallback: response.fallback, response: response))
                continuation.finish()
            case .failure(let error):
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    /// Claims the session for one request and builds it from the transcript plus `prompt`.
    private func begin(_ prompt: String, options: RequestOptions) throws(TandemError) -> HybridRequest {
        guard !prompt.allSatisfy(\.isWhitespace) else {
            throw TandemError(.emptyPrompt, "the prompt is empty")
        }
        try options.validate()
        let messages = try state.withLock { state throws(TandemError) -> [Message] in
            guard !state.isResponding else {
                throw TandemError(.concurrentRequests, "this session is already answering a request")
            }
            state.isResponding = true
            return state.transcript.messages
        }
        return HybridRequest(messages: messages + [.user(prompt)], locale: locale, options: options)
    }

    /// Releases the session; a successful exchange joins the transcript, a failed one leaves
    /// no trace.
    private func end(_ prompt: String, _ outcome: Result<Response, TandemError>) {
        state.withLock { state in
            state.isResponding = false
            if case .success(let response) = outcome {
                state.transcript.append(.prompt(prompt))
                state.transcript.append(
                    .response(response.content, servedBy: response.servedBy, modelVersion: response.rawResponse.modelVersion))
            }
        }
    }
}

/// Accumulates the output events of one generation into a `Response`.
private struct OutputCollector {
    var text = ""
    var toolCalls: [ToolCall] = []

    mutating func add(_ event: BackendEvent) {
        switch event {
        case .text(let piece): text += piece
        case .toolCall(let call): toolCalls.append(call)
        case .usage: break
        }
    }

    func response(_ routed: RoutedResult) -> Response {
        Response(
            content: text,
            rawResponse: Response.RawResponse(modelVersion: routed.result.modelVersion, finishReason: routed.result.finish),
            servedBy: routed.decision.servedBy.id, fallback: routed.decision.fallback, usage: routed.result.usage,
            toolCalls: toolCalls)
    }
}
