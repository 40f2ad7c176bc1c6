import GuidedJSON

/// Runs one request of a session that declares tools or asks for a response schema: model turns,
/// with the tools the model asks for run by the host between them, then the final document
/// validated against the schema.
///
/// A turn ends in tool calls or in an answer. For each call the host finds the tool (an invented
/// name is `unknownTool`), validates the arguments against its schema, calls it and feeds the
/// output back as a tool message (call id and tool name). Invalid arguments are reported to the
/// model once, as the output of that call; a second time they end the request
/// (`invalidToolArguments`). A tool that throws ends the request (`toolFailed`). Asking for
/// tools on the last allowed turn is `toolTurnLimit`. Every turn is routed afresh.
struct ToolLoop: Sendable {
    /// A finished request: the answer, the validated document (with a schema), and the tool
    /// calls and outputs for the transcript.
    struct Outcome: Sendable {
        var response: Response
        var content: GeneratedContent?
        var toolEntries: [Transcript.Entry]
    }

    /// Called with every text piece as it arrives (on an executor thread), the turn's number
    /// (from 1) and who serves it; false stops the generation.
    typealias TextHandler = @Sendable (_ decision: RouteDecision, _ turn: Int, _ piece: String) -> Bool

    let model: HybridModel
    let executor: BlockingExecutor
    let tools: [any Tool]
    let declarations: [ToolDeclaration]
    let maximumTurns: Int
    let schema: GenerationSchema?
    let schemaText: String?

    /// Checks everything the host can check before any backend call: the schema and every tool's
    /// arguments schema are expressible, tool names are distinct, the turn bound is positive.
    init(
        model: HybridModel, executor: BlockingExecutor, tools: [any Tool], maximumTurns: Int, schema: GenerationSchema?
    ) throws(TandemError) {
        guard maximumTurns >= 1 else {
            throw TandemError(.invalidOptions, "maximumToolTurns must be at least 1, got \(maximumTurns)")
        }
        var declarations: [ToolDeclaration] = []
        for tool in tools {
            guard !declarations.contains(where: { $0.name == tool.name }) else {
                throw TandemError(.invalidOptions, "two tools are named \"\(tool.name)\"")
            }
            guard !tool.name.isEmpty else { throw TandemError(.invalidOptions, "a tool has an empty name") }
            let parameters = try tool.parameters.checkedJSONSchemaText("arguments schema of tool \"\(tool.name)\"")
            declarations.append(ToolDeclaration(name: tool.name, description: tool.description, parametersSchema: parameters))
        }
        self.model = model
        self.executor = executor
        self.tools = tools
        self.declarations = declarations
        self.maximumTurns = maximumTurns
        self.schema = schema
        self.schemaText = try schema?.checkedJSONSchemaText("response schema")
    }

    func run(
        _ request: HybridRequest, cancellation: CancellationToken, onText: @escaping TextHandler
    ) async throws(TandemError) -> Outcome {
        var request = request
        request.tools = declarations
        request.responseSchema = schemaText
        var entries: [Transcript.Entry] = []
        var allCalls: [ToolCall] = []
        var usage = Usage()
        var invalidArgumentsReported = false
        var turn = 0
        while true {
            turn += 1
            let (routed, output) = try await generate(request, turn: turn, cancellation: cancellation, onText: onText)
            usage.promptTokens += routed.result.usage.promptTokens
            usage.outputTokens += routed.result.usage.outputTokens
            usage.thinkingTokens += routed.result.usage.thinkingTokens
            allCalls += output.toolCalls

            guard !output.toolCalls.isEmpty else {
                var response = output.response(routed)
                response.usage = usage
                response.toolCalls = allCalls
                let content = try schema.map { schema throws(TandemError) in try Self.validate(response, against: schema) }
                return Outcome(response: response, content: content, toolEntries: entries)
            }
            guard turn < maximumTurns else {
                let names = output.toolCalls.map(\.name).joined(separator: ", ")
                throw TandemError(.toolTurnLimit, "the model still asked for tools (\(names)) after \(maximumTurns) turns")
            }
            var round: [Transcript.Entry] = [
                .toolCalls(output.toolCalls, servedBy: routed.decision.servedBy.id, modelVersion: routed.result.modelVersion)
            ]
            var reportedThisRound = false
            for call in output.toolCalls {
                let text = try await answer(call, mayReportInvalidArguments: !invalidArgumentsReported, reported: &reportedThisRound)
                round.append(.toolOutput(text, callID: call.id, toolName: call.name))
            }
            invalidArgumentsReported = invalidArgumentsReported || reportedThisRound
            entries += round
            request.messages += round.map(\.message)
        }
    }

    /// One model turn on an executor thread.
    private func generate(
        _ request: HybridRequest, turn: Int, cancellation: CancellationToken, onText: @escaping TextHandler
    ) async throws(TandemError) -> (RoutedResult, OutputCollector) {
        let model = self.model
        let outcome = await executor.run(cancelling: cancellation) { () -> Result<(RoutedResult, OutputCollector), TandemError> in
            var collector = OutputCollector()
            do throws(TandemError) {
                let routed = try model.generate(request, cancellation: cancellation) { decision, event in
                    collector.add(event)
                    guard case .text(let piece) = event else { return true }
                    return onText(decision, turn, piece)
                }
                return .success((routed, collector))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The text of the tool message answering `call`: the tool's output, or the report of
    /// invalid arguments (`reported` set) when the model has not been told before.
    private func answer(
        _ call: ToolCall, mayReportInvalidArguments: Bool, reported: inout Bool
    ) async throws(TandemError) -> String {
        guard let tool = tools.first(where: { $0.name == call.name }) else {
            let known = tools.isEmpty ? "none" : tools.map { "\"\($0.name)\"" }.joined(separator: ", ")
            throw TandemError(.unknownTool, "the model called a tool named \"\(call.name)\" (call \(call.id)); this session's tools: \(known)")
        }
        func invalid(_ error: any Error) throws(TandemError) -> String {
            let guided = error as? GuidedJSONError ?? GuidedJSONError(.decodingFailure, "\(error)")
            guard mayReportInvalidArguments else {
                throw TandemError(
                    .invalidToolArguments, "the arguments of tool \"\(call.name)\" (call \(call.id)) are invalid after the model was told once",
                    guided: guided)
            }
            reported = true
            return "Error: invalid arguments for tool \"\(call.name)\": \(guided). Call it again with arguments that match its schema."
        }
        let arguments: GeneratedContent
        do {
            arguments = try GeneratedContent(json: call.argumentsJSON, schema: tool.parameters)
        } catch {
            return try invalid(error)
        }
        switch await tool.invoke(arguments) {
        case .output(let text): return text
        case .invalidArguments(let error): return try invalid(error)
        case .failed(let error):
            var failure = TandemError(.toolFailed, "tool \"\(call.name)\" (call \(call.id)) failed: \(error)")
            failure.toolFailure = ToolFailure(toolName: call.name, callID: call.id, underlyingError: error)
            throw failure
        }
    }

    /// The final answer as a document of `schema`; invalid or truncated is `decodingFailure`.
    private static func validate(_ response: Response, against schema: GenerationSchema) throws(TandemError) -> GeneratedContent {
        do {
            return try GeneratedContent(json: response.content, schema: schema)
        } catch let error as GuidedJSONError {
            var reason = "the answer of \(response.servedBy) is not a valid document"
            if response.rawResponse.finishReason != .stop { reason += " (generation ended: \(response.rawResponse.finishReason))" }
            throw TandemError(.decodingFailure, reason, guided: error)
        } catch {
            throw TandemError(.decodingFailure, "the answer of \(response.servedBy) is not a valid document: \(error)")
        }
    }
}
