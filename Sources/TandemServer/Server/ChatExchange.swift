import Foundation
import GuidedJSON
import JSONModel
import Synchronization
import Tandem

/// One `/v1/chat/completions` request through the router: the client's conversation and tools
/// as one `HybridRequest`, routed afresh (the client keeps the conversation; the server keeps
/// none), the answer validated against the response format, and sent whole or as a stream.
///
/// A stream's status line and headers are sent when the router has decided who serves (the
/// first output), so a request that no model may serve still gets its 503, 429 or 504.
struct ChatExchange {
    let server: ModelServer
    let request: ChatCompletionRequest
    let run: RequestRun
    /// Called once when the request is over (the answer written or the client gone).
    let end: @Sendable () -> Void

    func respond() throws(APIError) -> (HTTPResponse, String?) {
        let model = try server.resolve(request.model)
        let routed = HybridRequest(
            messages: request.messages, tools: request.tools, responseSchema: request.schema?.jsonSchemaText, options: request.options)
        return request.stream ? stream(model, routed) : whole(model, routed)
    }

    // MARK: - Whole

    private func whole(_ model: HybridModel, _ routed: HybridRequest) -> (HTTPResponse, String?) {
        defer { end() }
        var text = ""
        var calls: [ToolCall] = []
        let result: RoutedResult
        do throws(TandemError) {
            result = try model.generate(routed, cancellation: run.token) { _, event in
                switch event {
                case .text(let piece): text += piece
                case .toolCall(let call): calls.append(call)
                case .usage: break
                }
                return true
            }
        } catch {
            return (ModelServer.error(server.failure(error, run: run)), nil)
        }
        let response = Response(
            content: text, rawResponse: Response.RawResponse(modelVersion: result.result.modelVersion, finishReason: result.result.finish),
            servedBy: result.decision.servedBy.id, fallback: result.decision.fallback, usage: result.result.usage, toolCalls: calls)
        if let problem = check(response) { return (ModelServer.error(problem), response.servedBy) }
        var http = ModelServer.json(200, ChatCompletionResponse().whole(response))
        http.headers += Self.servingHeaders(servedBy: response.servedBy, modelVersion: response.rawResponse.modelVersion)
        return (http, response.servedBy)
    }

    /// What makes a finished answer wrong for this request: a document off the schema, text that
    /// is not a JSON object for json_object, or no tool call where `tool_choice` demanded one.
    private func check(_ response: Response) -> APIError? {
        if request.wantsJSONObject, response.toolCalls.isEmpty {
            let document = try? JSON(parsing: response.content)
            guard case .object? = document else {
                return APIError(status: 502, type: "server_error", code: "decoding_failure",
                                message: "the answer of \(response.servedBy) is not a JSON object (response_format json_object)", param: nil)
            }
        }
        if let schema = request.schema, response.toolCalls.isEmpty {
            do {
                _ = try GeneratedContent(json: response.content, schema: schema)
            } catch {
                return APIError(status: 502, type: "server_error", code: "decoding_failure",
                                message: "the answer of \(response.servedBy) does not match response_format: \(error)", param: nil)
            }
        }
        if response.toolCalls.isEmpty, request.toolChoice != .auto, request.toolChoice != .none {
            return APIError(status: 502, type: "server_error", code: "tool_call_missing",
                            message: "tool_choice asked for a tool call but \(response.servedBy) answered without one", param: nil)
        }
        return nil
    }

    static func servingHeaders(servedBy: String, modelVersion: String?) -> [(name: String, value: String)] {
        [("X-Tandem-Served-By", servedBy)] + (modelVersion.map { [("X-Tandem-Model-Version", $0)] } ?? [])
    }

    // MARK: - Stream

    /// What the connection thread waits for before it sends the head.
    private enum Head: Sendable {
        case serving(servedBy: String)
        case failed(APIError)
    }

    private func stream(_ model: HybridModel, _ routed: HybridRequest) -> (HTTPResponse, String?) {
        let body = ResponseStream()
        let head = HeadLatch<Head>()
        let run = self.run
        body.onClientGone { run.cancel(.clientGone) }
        let exchange = self
        BlockingExecutor.shared.submit {
            exchange.produce(model, routed, into: body, head: head)
        }
        switch head.wait() {
        case .failed(let error):
            return (ModelServer.error(error), nil)
        case .serving(let servedBy):
            let headers: [(name: String, value: String)] = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")]
                + Self.servingHeaders(servedBy: servedBy, modelVersion: nil)
            return (HTTPResponse(status: 200, headers: headers, body: .stream(body)), servedBy)
        }
    }

    /// Runs the generation on an executor thread, writing chunks as the events come.
    private func produce(_ model: HybridModel, _ routed: HybridRequest, into body: ResponseStream, head: HeadLatch<Head>) {
        defer { end() }
        let chunks = ChatCompletionResponse()
        var started = false
        var modelID = ""
        var text = ""
        var calls: [ToolCall] = []
        let result: RoutedResult
        do throws(TandemError) {
            result = try model.generate(routed, cancellation: run.token) { decision, event in
                if !started {
                    started = true
                    modelID = decision.servedBy.info.id
                    head.open(.serving(servedBy: decision.servedBy.id))
                    body.write(ChatCompletionResponse.event(chunks.chunk(model: modelID, delta: ["role": "assistant", "content": ""])))
                }
                switch event {
                case .text(let piece):
                    text += piece
                    return body.write(ChatCompletionResponse.event(chunks.chunk(model: modelID, delta: ["content": .string(piece)])))
                case .toolCall(let call):
                    calls.append(call)
                    let delta: JSON = ["tool_calls": [ChatCompletionResponse.toolCall(call, index: calls.count - 1, inStream: true)]]
                    return body.write(ChatCompletionResponse.event(chunks.chunk(model: modelID, delta: delta)))
                case .usage:
                    return true
                }
            }
        } catch {
            if started {
                body.write(ChatCompletionResponse.event(server.failure(error, run: run).body))
                body.finish()
            } else {
                head.open(.failed(server.failure(error, run: run)))
            }
            return
        }
        let response = Response(
            content: text, rawResponse: Response.RawResponse(modelVersion: result.result.modelVersion, finishReason: result.result.finish),
            servedBy: result.decision.servedBy.id, fallback: result.decision.fallback, usage: result.result.usage, toolCalls: calls)
        if !started {
            // An empty answer: the head goes out now, with the one chunk a stream always has.
            started = true
            modelID = result.decision.servedBy.info.id
            head.open(.serving(servedBy: response.servedBy))
            body.write(ChatCompletionResponse.event(chunks.chunk(model: modelID, delta: ["role": "assistant", "content": ""])))
        }
        if let problem = check(response) {
            body.write(ChatCompletionResponse.event(problem.body))
            body.finish()
            return
        }
        let finish = ChatCompletionResponse.finishReason(response.rawResponse.finishReason, toolCalls: !calls.isEmpty)
        let tandem = ChatCompletionResponse.tandem(servedBy: response.servedBy, modelVersion: response.rawResponse.modelVersion, fallback: response.fallback)
        body.write(ChatCompletionResponse.event(chunks.chunk(model: response.rawResponse.modelVersion, delta: [:], finishReason: finish, tandem: tandem)))
        if request.includeUsage {
            body.write(ChatCompletionResponse.event(chunks.usageChunk(model: response.rawResponse.modelVersion, usage: response.usage)))
        }
        body.write(ChatCompletionResponse.done)
        body.finish()
    }
}

/// A value handed once from the producer to the waiting connection thread.
final class HeadLatch<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?

    func open(_ value: Value) {
        condition.lock()
        if self.value == nil { self.value = value }
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
