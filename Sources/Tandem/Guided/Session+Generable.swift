import GuidedJSON
import JSONModel
import Synchronization

/// Guided generation on a session: the schema goes to the serving backend as JSON Schema text
/// (`BackendOptions.responseSchema`), and the host validates the final document whatever the
/// backend did. A schema the host cannot express fails before any backend call
/// (`unsupportedGuide`, with the JSON path); an invalid or truncated answer is `decodingFailure`.
/// Only a side whose capabilities include guided JSON (and tools, when the session has them)
/// is asked.
extension LanguageModelSession {
    /// Answers `prompt` with a value of `type`.
    public func respond<Content: Generable>(
        to prompt: String, generating type: Content.Type, options: RequestOptions = .default
    ) async throws(TandemError) -> GuidedResponse<Content> {
        try await exchange(prompt, schema: Content.generationSchema, options: options, cancellation: CancellationToken()) {
            outcome throws(TandemError) in try Self.decode(outcome, as: Content.init)
        }
    }

    /// Answers `prompt` with a document of a schema built at run time.
    public func respond(
        to prompt: String, schema: GenerationSchema, options: RequestOptions = .default
    ) async throws(TandemError) -> GuidedResponse<GeneratedContent> {
        try await exchange(prompt, schema: schema, options: options, cancellation: CancellationToken()) {
            outcome throws(TandemError) in try Self.decode(outcome, as: { $0 })
        }
    }

    /// Answers `prompt` with a value of `type` as a stream of partially generated snapshots;
    /// the last one carries the validated value. Errors end the stream.
    public func streamResponse<Content: Generable & Sendable>(
        to prompt: String, generating type: Content.Type, options: RequestOptions = .default
    ) -> AsyncThrowingStream<GuidedSnapshot<Content>, any Error> {
        guidedStream(prompt, schema: Content.generationSchema, options: options, decode: Content.init)
    }

    /// Streams a document of a schema built at run time.
    public func streamResponse(
        to prompt: String, schema: GenerationSchema, options: RequestOptions = .default
    ) -> AsyncThrowingStream<GuidedSnapshot<GeneratedContent>, any Error> {
        guidedStream(prompt, schema: schema, options: options, decode: { $0 })
    }

    /// Runs one request through `ToolLoop` (tools, schema, or both) while holding the session;
    /// `finish` turns the outcome into the caller's result before the exchange joins the
    /// transcript, so a request that fails anywhere leaves no trace.
    func exchange<Result>(
        _ prompt: String, schema: GenerationSchema?, options: RequestOptions, cancellation: CancellationToken,
        onText: @escaping ToolLoop.TextHandler = { _, _, _ in true },
        finish: (ToolLoop.Outcome) throws(TandemError) -> Result
    ) async throws(TandemError) -> Result {
        let loop = try ToolLoop(model: model, executor: executor, tools: tools, maximumTurns: maximumToolTurns, schema: schema)
        let request = try begin(prompt, options: options)
        do {
            let outcome = try await loop.run(request, cancellation: cancellation, onText: onText)
            let result = try finish(outcome)
            end(prompt, .success(outcome.response), toolEntries: outcome.toolEntries)
            return result
        } catch {
            end(prompt, .failure(error))
            throw error
        }
    }

    private static func decode<Content>(
        _ outcome: ToolLoop.Outcome, as decode: (GeneratedContent) throws -> Content
    ) throws(TandemError) -> GuidedResponse<Content> {
        // The loop validated the document against the schema; the type's decoder may still refuse it.
        let document = outcome.content ?? GeneratedContent(.null)
        do {
            return GuidedResponse(content: try decode(document), rawContent: document, response: outcome.response)
        } catch let error as GuidedJSONError {
            throw TandemError(.decodingFailure, "the answer of \(outcome.response.servedBy) does not decode", guided: error)
        } catch {
            throw TandemError(.decodingFailure, "the answer of \(outcome.response.servedBy) does not decode: \(error)")
        }
    }

    /// Feeds each turn's text to its own incremental parser and publishes a snapshot per piece.
    /// Text that can never become JSON stops the generation at once; the final validation then
    /// reports it as `decodingFailure`.
    private func guidedStream<Content: Sendable>(
        _ prompt: String, schema: GenerationSchema, options: RequestOptions,
        decode: @escaping @Sendable (GeneratedContent) throws -> Content
    ) -> AsyncThrowingStream<GuidedSnapshot<Content>, any Error> {
        let (stream, continuation) = AsyncThrowingStream<GuidedSnapshot<Content>, any Error>.makeStream()
        let parsing = Mutex((turn: 0, parser: JSONStreamParser()))
        let token = CancellationToken()
        continuation.onTermination = { termination in
            if case .cancelled = termination { token.cancel() }
        }
        Task {
            do throws(TandemError) {
                let response = try await exchange(prompt, schema: schema, options: options, cancellation: token, onText: {
                    decision, turn, piece in
                    let snapshot = parsing.withLock { state -> JSONSnapshot? in
                        if state.turn != turn { state = (turn, JSONStreamParser()) }
                        do { try state.parser.feed(piece) } catch { return nil }
                        return state.parser.snapshot()
                    }
                    guard let snapshot else { return false }
                    let partial = GuidedSnapshot<Content>(
                        partial: snapshot.value.map { GeneratedContent($0) }, activePath: snapshot.activePath,
                        isComplete: snapshot.isComplete, servedBy: decision.servedBy.id, fallback: decision.fallback)
                    if case .terminated = continuation.yield(partial) { return false }
                    return true
                }) { outcome throws(TandemError) in try Self.decode(outcome, as: decode) }
                continuation.yield(GuidedSnapshot(
                    partial: response.rawContent, activePath: nil, isComplete: true, servedBy: response.servedBy,
                    fallback: response.response.fallback, response: response))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    /// `streamResponse(to:options:)` for a session with tools: the text of each turn as
    /// snapshots, tools run between turns.
    func streamWithTools(
        _ prompt: String, options: RequestOptions, cancellation token: CancellationToken
    ) -> AsyncThrowingStream<ResponseSnapshot, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ResponseSnapshot, any Error>.makeStream()
        let text = Mutex((turn: 0, content: ""))
        continuation.onTermination = { termination in
            if case .cancelled = termination { token.cancel() }
        }
        Task {
            do throws(TandemError) {
                let response = try await exchange(prompt, schema: nil, options: options, cancellation: token, onText: {
                    decision, turn, piece in
                    let content = text.withLock { state in
                        state = (turn, (state.turn == turn ? state.content : "") + piece)
                        return state.content
                    }
                    let snapshot = ResponseSnapshot(content: content, servedBy: decision.servedBy.id, fallback: decision.fallback, response: nil)
                    if case .terminated = continuation.yield(snapshot) { return false }
                    return true
                }) { outcome throws(TandemError) in outcome.response }
                continuation.yield(ResponseSnapshot(
                    content: response.content, servedBy: response.servedBy, fallback: response.fallback, response: response))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }
}
