/// Where fallback is decided: runs one request on a `HybridModel` by the rules of README "Routing: who answers".
///
/// 1. Option values are checked for every side first: a bad value fails before any backend call.
/// 2. The primary serves when it is available (for the request's locale) and supports the
///    request (tools, response schema, thinking, context length). Otherwise the secondary serves
///    when the policy allows it (a local primary: always; a cloud primary: when `offline` or the
///    request is unsupported, unless widened), or else a typed error carries the reason.
/// 3. A primary failure before any output reached the caller falls back when the policy allows
///    it (local primary: any failure; cloud primary: offline-class only, unless widened).
///    Cancellation never falls back, and neither does a failure after output was delivered.
/// 4. When both sides fail, the error names both reasons.
struct Router {
    let model: HybridModel
    let request: HybridRequest
    let cancellation: CancellationToken

    func run(onEvent: (RouteDecision, BackendEvent) -> Bool) throws(TandemError) -> RoutedResult {
        try request.options.validate()
        guard !cancellation.isCancelled else { throw TandemError(.cancelled, "cancelled before any model was called") }
        let primary = model.primary
        let primaryReason: RoutingReason
        let primaryTried: Bool
        if let problem = obstacle(for: primary) {
            if case .unavailable(let reason, _) = problem, let secondary = model.secondary,
                !model.fallbackPolicy.fallsBack(whenUnavailable: reason, primaryKind: primary.kind)
            {
                let attempt = RoutingAttempt(backendID: primary.id, reason: problem)
                throw TandemError(
                    .unavailable,
                    "\(attempt); a \(primary.kind) primary falls back to \(secondary.id) only when offline (fallback.also_on widens it)",
                    primary: attempt)
            }
            primaryReason = problem
            primaryTried = false
        } else {
            let decision = RouteDecision(
                servedBy: primary, fallback: FallbackRecord(primaryID: primary.id, primaryTried: true, reason: nil))
            switch attempt(decision, onEvent: onEvent) {
            case .success(let result):
                return RoutedResult(decision: decision, result: result)
            case .failure(let failure, let outputDelivered):
                guard !outputDelivered, !cancellation.isCancelled, model.secondary != nil,
                    model.fallbackPolicy.fallsBack(after: failure, primaryKind: primary.kind)
                else {
                    let attempt = RoutingAttempt(backendID: primary.id, reason: .failed(failure))
                    throw Self.error(for: failure, primary: attempt, secondary: nil, cancelled: cancellation.isCancelled)
                }
                primaryReason = .failed(failure)
                primaryTried = true
            }
        }

        let primaryAttempt = RoutingAttempt(backendID: primary.id, reason: primaryReason)
        let record = FallbackRecord(primaryID: primary.id, primaryTried: primaryTried, reason: primaryReason)
        guard let secondary = model.secondary else {
            let code: TandemError.Code = if case .unsupported = primaryAttempt.reason { .unsupportedRequest } else { .unavailable }
            throw TandemError(code, "\(primaryAttempt)", primary: primaryAttempt)
        }
        guard !cancellation.isCancelled else {
            throw TandemError(.cancelled, "cancelled before \(secondary.id) was called", primary: primaryAttempt)
        }
        if let problem = obstacle(for: secondary) {
            let secondaryAttempt = RoutingAttempt(backendID: secondary.id, reason: problem)
            let code: TandemError.Code = if case .unsupported = problem { .unsupportedRequest } else { .unavailable }
            throw TandemError(
                code, "no model could serve: primary \(primaryAttempt); secondary \(secondaryAttempt)",
                primary: primaryAttempt, secondary: secondaryAttempt)
        }
        PluginHostServices.log(
            source: "host", .info, "\(primary.id) did not serve (\(primaryAttempt.reason)); falling back to \(secondary.id)")
        let decision = RouteDecision(servedBy: secondary, fallback: record)
        switch attempt(decision, onEvent: onEvent) {
        case .success(let result):
            return RoutedResult(decision: decision, result: result)
        case .failure(let failure, _):
            throw Self.error(
                for: failure, primary: primaryAttempt,
                secondary: RoutingAttempt(backendID: secondary.id, reason: .failed(failure)),
                cancelled: cancellation.isCancelled)
        }
    }

    /// Why `candidate` must not be called for this request, or nil when it may serve.
    private func obstacle(for candidate: LanguageModel) -> RoutingReason? {
        if case .unavailable(let reason, let detail, _) = candidate.availability(for: request.locale) {
            return .unavailable(reason, detail: detail)
        }
        let info = candidate.info
        if !request.tools.isEmpty && !info.capabilities.contains(.tools) { return .unsupported("tools") }
        if request.responseSchema != nil && !info.capabilities.contains(.guidedJSON) {
            return .unsupported("response schema")
        }
        let options = request.options.backendOptions(for: info.kind)
        if (options.thinkingLevel != nil || options.thinkingBudget != nil) && !info.capabilities.contains(.thinking) {
            return .unsupported("thinking")
        }
        if info.contextLength > 0 && info.capabilities.contains(.tokenCounting) && !fitsSurely(in: info.contextLength),
            let tokens = try? candidate.backend.countTokens(request.backendRequest(for: info.kind)),
            tokens >= info.contextLength
        {
            return .unsupported("context length: \(tokens) prompt tokens, the model holds \(info.contextLength)")
        }
        return nil
    }

    /// True when the conversation cannot exceed `contextLength` tokens whatever the tokenizer,
    /// so counting (a full plugin call) is skipped: a token covers at least one byte, and chat
    /// templates add a handful of tokens per message.
    private func fitsSurely(in contextLength: Int) -> Bool {
        let templateTokensPerMessage = 16
        let bound = request.messages.reduce(0) { $0 + $1.content.utf8.count + templateTokensPerMessage }
        return bound < contextLength
    }

    private enum Outcome {
        case success(BackendResult)
        case failure(BackendFailure, outputDelivered: Bool)
    }

    /// Calls one backend, forwarding its text and tool calls; remembers whether any reached the
    /// caller, since after that no fallback is allowed.
    private func attempt(_ decision: RouteDecision, onEvent: (RouteDecision, BackendEvent) -> Bool) -> Outcome {
        let backend = decision.servedBy.backend
        var outputDelivered = false
        do {
            let result = try backend.generate(
                request.backendRequest(for: backend.info.kind), cancellation: cancellation
            ) { event in
                if case .usage = event { return true }  // counts, not output; the result has the totals
                outputDelivered = true
                return onEvent(decision, event)
            }
            if result.finish == .cancelled {
                return .failure(BackendFailure(.cancelled, "cancelled"), outputDelivered: outputDelivered)
            }
            return .success(result)
        } catch {
            return .failure(error, outputDelivered: outputDelivered)
        }
    }

    private static func error(
        for failure: BackendFailure, primary: RoutingAttempt, secondary: RoutingAttempt?, cancelled: Bool
    ) -> TandemError {
        let code: TandemError.Code =
            if cancelled || failure.status == .cancelled { .cancelled }
            else if failure.status == .timeout { .timeout }
            else { .backendFailure }
        let message =
            if let secondary { "no model could serve: primary \(primary); secondary \(secondary)" }
            else { "\(primary)" }
        return TandemError(code, message, primary: primary, secondary: secondary, failure: failure)
    }
}
