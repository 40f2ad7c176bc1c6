import TandemBridge
import TandemPluginKit

/// A deterministic model whose every behaviour comes from its script: same settings and request,
/// same events. Stands in for a local or a cloud model in routing tests.
final class FakeModel: PluginModel {
    let script: FakeScript
    let info: ModelInfo

    init(script: FakeScript) {
        self.script = script
        var capabilities: ModelCapabilities = [.streaming, .guidedJSON, .tools, .tokenCounting, .deterministic]
        if script.embeddingDimensions > 0 { capabilities.insert(.embeddings) }
        if script.concurrent { capabilities.insert(.concurrentCalls) }
        capabilities.subtract(script.withoutCapabilities)
        info = ModelInfo(
            id: "fake-\(script.kind.rawValue)", displayName: "Tandem fake (\(script.kind.rawValue))", kind: script.kind,
            capabilities: capabilities, contextLength: script.contextLength, embeddingDimensions: script.embeddingDimensions)
    }

    func availability(locale: String?) -> Availability {
        if case .unavailable = script.availability { return script.availability }
        if let locale, !supports(locale: locale) {
            return .unavailable(.unsupportedLocale, detail: "locale \(locale) is not among \(script.locales!.joined(separator: ", "))")
        }
        return .available
    }

    /// A locale matches a listed one exactly or by language (`de-CH` matches `de`).
    private func supports(locale: String) -> Bool {
        guard let locales = script.locales else { return true }
        let language = locale.split(separator: "-").first.map(String.init) ?? locale
        return locales.contains { $0.lowercased() == locale.lowercased() || $0.lowercased() == language.lowercased() }
    }

    func generate(_ request: BackendRequest, events: PluginEventSink, cancellation: PluginCancellation) throws(BackendFailure) -> BackendResult {
        if case .unavailable(let reason, let detail, _) = availability(locale: request.locale) {
            throw BackendFailure(.unavailable, "\(reason.name): \(detail)")
        }
        let options = request.options
        if options.thinkingLevel != nil || options.thinkingBudget != nil {
            throw BackendFailure(.unsupportedOption, "the fake does not think: thinking level and budget are unsupported")
        }
        if options.responseSchema != nil && !info.capabilities.contains(.guidedJSON) {
            throw BackendFailure(.unsupportedGuide, "this fake is scripted without guidedJSON: it cannot honour a response schema")
        }
        if !request.tools.isEmpty && !info.capabilities.contains(.tools) {
            throw BackendFailure(.unsupportedOption, "this fake is scripted without tools: it cannot call the declared tools")
        }
        if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled before the generation started") }
        if let refusal = script.refusal { throw BackendFailure(.refusal, refusal) }

        let promptTokens = request.messages.reduce(0) { $0 + FakeTokens.count($1.content) }
        let requested = promptTokens + (options.maxTokens ?? 0)
        if requested > script.contextLength {
            var failure = BackendFailure(.exceededContextWindowSize, "\(requested) tokens requested, the context holds \(script.contextLength)")
            failure.contextLimit = UInt64(script.contextLength)
            failure.contextRequested = UInt64(requested)
            throw failure
        }
        if script.hang {
            guard cancellation.sleep(for: nil) else { throw BackendFailure(.invalidArgument, "hang needs a cancellation token") }
            throw BackendFailure(.cancelled, "cancelled while hanging")
        }

        var usage = Usage(promptTokens: promptTokens)
        func finish(_ reason: FinishReason) -> BackendResult {
            BackendResult(finish: reason, modelVersion: script.modelVersion, usage: usage)
        }
        if let calls = script.toolCalls, !request.tools.isEmpty, Self.toolTurns(in: request.messages) < script.toolCallTurns {
            if let failure = script.failure, failure.atToken == 0 {
                throw BackendFailure(failure.status, "scripted \(failure.status.name) after 0 tokens")
            }
            for call in calls {
                guard events.send(.toolCall(call)) else { return finish(.callback) }
            }
            usage.outputTokens = calls.count
            guard events.send(.usage(usage)) else { return finish(.callback) }
            return finish(.toolCalls)
        }

        var text: String
        if options.responseSchema != nil {
            guard let guided = script.guidedReply else {
                throw BackendFailure(.unsupportedGuide, "the fake has no guided_reply scripted for a response schema")
            }
            text = guided
        } else {
            text = script.reply ?? request.messages.last { $0.role == .user }?.content ?? ""
        }
        var ending = FinishReason.stop
        if let stops = options.stopSequences, let cut = Self.firstStop(in: text, stops) {
            text = String(text[..<cut])
            ending = .stopSequence
        }
        let pieces = FakeTokens.pieces(text)
        for (index, piece) in pieces.enumerated() {
            if let failure = script.failure, failure.atToken == index {
                throw BackendFailure(failure.status, "scripted \(failure.status.name) after \(index) tokens")
            }
            if let limit = options.maxTokens, index == limit {
                ending = .maxTokens
                break
            }
            if script.tokenDelay > .zero, cancellation.sleep(for: script.tokenDelay) {
                throw BackendFailure(.cancelled, "cancelled after \(index) tokens")
            }
            if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled after \(index) tokens") }
            guard events.send(.text(piece)) else {
                usage.outputTokens = index + 1
                return finish(.callback)
            }
            usage.outputTokens = index + 1
        }
        if let failure = script.failure, failure.atToken >= usage.outputTokens, ending != .maxTokens {
            throw BackendFailure(failure.status, "scripted \(failure.status.name) after \(usage.outputTokens) tokens")
        }
        guard events.send(.usage(usage)) else { return finish(.callback) }
        return finish(ending)
    }

    /// The turns that called tools since the last user message.
    private static func toolTurns(in messages: [Message]) -> Int {
        messages.reversed().prefix { $0.role != .user }.filter { $0.role == .assistant && !$0.toolCalls.isEmpty }.count
    }

    /// Where the earliest stop sequence begins, if any.
    private static func firstStop(in text: String, _ stops: [String]) -> String.Index? {
        stops.compactMap { text.firstRange(of: $0)?.lowerBound }.min()
    }

    func embed(_ texts: [String], cancellation: PluginCancellation) throws(BackendFailure) -> [[Float]] {
        var vectors: [[Float]] = []
        for text in texts {
            if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled after \(vectors.count) embeddings") }
            vectors.append(FakeEmbedding.vector(text, dimensions: script.embeddingDimensions))
        }
        return vectors
    }

    /// `tandem.token_embeddings/1` whenever embeddings are on: a token is a word (FakeEmbedding.tokens).
    var offersTokenEmbeddings: Bool { info.capabilities.contains(.embeddings) }

    func tokenEmbeddingCount(of text: String) throws(BackendFailure) -> Int { FakeEmbedding.tokens(text).count }

    func tokenEmbeddings(of text: String, cancellation: PluginCancellation) throws(BackendFailure) -> TokenEmbeddings {
        if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled before the token states") }
        let words = FakeEmbedding.tokens(text)
        return TokenEmbeddings(ids: words.map(\.id), states: words.map { FakeEmbedding.vector($0.word, dimensions: script.embeddingDimensions) })
    }

    func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int {
        request.messages.reduce(0) { $0 + FakeTokens.count($1.content) }
    }
}
