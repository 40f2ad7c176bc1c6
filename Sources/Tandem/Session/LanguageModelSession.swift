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
    /// The tools the model may call; a request with tools runs the tool loop (`ToolLoop`).
    public let tools: [any Tool]
    /// Model turns one request may take when tools are called (each tool round is one turn).
    public let maximumToolTurns: Int
    let executor: BlockingExecutor
    let state: Mutex<State>

    struct State {
        var transcript: Transcript
        var isResponding = false
    }

    public init(
        model: HybridModel, tools: [any Tool] = [], instructions: String? = nil, locale: String? = nil,
        maximumToolTurns: Int = 10, executor: BlockingExecutor = .shared
    ) {
        self.model = model
        self.locale = locale
        self.tools = tools
        self.maximumToolTurns = maximumToolTurns
        self.executor = executor
        var transcript = Transcript()
        if let instructions, !instructions.isEmpty { transcript.append(.instructions(instructions)) }
        self.state = Mutex(State(transcript: transcript))
    }

    /// A session on one model alone (no secondary), as with Foundation Models' system model.
    public convenience init(model: LanguageModel, tools: [any Tool] = [], instructions: String? = nil, locale: String? = nil) {
        self.init(model: HybridModel(primary: model), tools: tools, instructions: instructions, locale: locale)
    }

    public var transcript: Transcript { state.withLock { $0.transcript } }
    public var isResponding: Bool { state.withLock { $0.isResponding } }

    /// Answers `prompt` in full. Runs on the caller's executor (`nonisolated(nonsending)`): only
    /// the plugin call leaves it (`BlockingExecutor.run`), so an actor-isolated caller does not
    /// also hop to the global executor and back.
    public nonisolated(nonsending) func respond(to prompt: String, options: RequestOptions = .default) async throws(TandemError) -> Response {
        if !tools.isEmpty {
            return try await exchange(prompt, schema: nil, options: options, cancellation: CancellationToken()) { $0.response }
        }
        let request = try begin(prompt, options: options)
        let outcome: Result<Response, TandemError>
        do throws(TandemError) {
            outcome = .success(try await model.respond(to: request, executor: executor))
        } catch {
            outcome = .failure(error)
        }
        end(prompt, outcome)
        return try outcome.get()
    }

    /// Answers `prompt` as a stream of snapshots, each holding all text so far; the last one
    /// carries the finished `Response`. Errors (including the routing ones) end the stream.
    ///
    /// Two ways to stop it. Dropping the stream (or cancelling the consuming task) cancels the
    /// plugin call, but the session stays busy until the plugin has noticed. Cancelling
    /// `cancellation` instead ends the stream with `cancelled` only once the session is free,
    /// so the next request of a conversation can start at once.
    public func streamResponse(
        to prompt: String, options: RequestOptions = .default, cancellation: CancellationToken = CancellationToken()
    ) -> AsyncThrowingStream<ResponseSnapshot, any Error> {
        if !tools.isEmpty { return streamWithTools(prompt, options: options, cancellation: cancellation) }
        let (stream, continuation) = AsyncThrowingStream<ResponseSnapshot, any Error>.makeStream()
        let request: HybridRequest
        do {
            request = try begin(prompt, options: options)
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        let token = cancellation
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
            executor.releaseCurrentWorker()  // only the hand-over is left; the caller may start the next request
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
    func begin(_ prompt: String, options: RequestOptions) throws(TandemError) -> HybridRequest {
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

    /// Releases the session; a successful exchange (with its tool calls and outputs, `toolEntries`)
    /// joins the transcript, a failed one leaves no trace.
    func end(_ prompt: String, _ outcome: Result<Response, TandemError>, toolEntries: [Transcript.Entry] = []) {
        state.withLock { state in
            state.isResponding = false
            if case .success(let response) = outcome {
                state.transcript.append(.prompt(prompt))
                toolEntries.forEach { state.transcript.append($0) }
                state.transcript.append(
                    .response(response.content, servedBy: response.servedBy, modelVersion: response.rawResponse.modelVersion))
            }
        }
    }
}

/// Accumulates the output events of one generation into a `Response`.
struct OutputCollector {
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
