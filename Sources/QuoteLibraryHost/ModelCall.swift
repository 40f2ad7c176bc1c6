import Tandem

/// One routed generation, run on a `BlockingExecutor` thread (plugin calls block; never on the
/// cooperative pool). Cancelling the calling task cancels the backend's `CancellationToken`,
/// which the plugin polls; the call then ends with `CancellationError`.
struct ModelCall: Sendable {
    let model: HybridModel

    struct Output: Sendable {
        let text: String
        let modelVersion: String
        let servedBy: String
        let toolCalls: [ToolCall]
    }

    /// True when every side that may serve accepts a response schema, so a guided request
    /// cannot lose its fallback to a side without guided output.
    var supportsGuidedJSON: Bool {
        ([model.primary] + (model.secondary.map { [$0] } ?? [])).allSatisfy { $0.info.capabilities.contains(.guidedJSON) }
    }

    /// Runs `request`; `onText` receives all text so far after each piece (on the worker thread).
    func run(_ request: HybridRequest, onText: @escaping @Sendable (String) -> Void = { _ in }) async throws -> Output {
        try Task.checkCancellation()
        let model = self.model
        let result = try await BackendTurns.shared.withTurn(BackendTurns.keys(of: model)) {
            let token = CancellationToken()
            return await BlockingExecutor.shared.run(cancelling: token) {
                Self.generate(request, on: model, cancellation: token, onText: onText)
            }
        }
        switch result {
        case .success(let output):
            return output
        case .failure(let error):
            if error.code == .cancelled || Task.isCancelled { throw CancellationError() }
            throw error
        }
    }

    /// The blocking call itself, collecting the text and tool calls.
    private static func generate(_ request: HybridRequest, on model: HybridModel, cancellation: CancellationToken,
                                 onText: (String) -> Void) -> Result<Output, TandemError> {
        var text = ""
        var calls: [ToolCall] = []
        do throws(TandemError) {
            let routed = try model.generate(request, cancellation: cancellation) { _, event in
                switch event {
                case .text(let piece):
                    text += piece
                    onText(text)
                case .toolCall(let call): calls.append(call)
                case .usage: break
                }
                return true
            }
            return .success(Output(text: text, modelVersion: routed.result.modelVersion, servedBy: routed.decision.servedBy.id,
                                   toolCalls: calls))
        } catch {
            return .failure(error)
        }
    }

    /// The backend's refusal explanation when `error` is a refusal or guardrail block.
    static func refusal(in error: TandemError) -> String? {
        guard let failure = error.failure, failure.status == .refusal || failure.status == .guardrail else { return nil }
        return failure.message
    }
}
