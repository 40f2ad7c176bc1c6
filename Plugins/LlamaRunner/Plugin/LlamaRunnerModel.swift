import Foundation
import GuidedJSON
import LlamaEngine
import Synchronization
import TandemPluginKit

/// The `tandem.llama` model: availability from the file's header (never its weights), the
/// engine loaded on the first generate/embed/count call and kept, one call at a time.
final class LlamaRunnerModel: PluginModel, @unchecked Sendable {
    /// Verifications are shared by every model of the process: two backends on one file hash it once.
    static let verifier = ChecksumVerifier()

    let settings: LlamaSettings
    let rules: ModelAvailability
    let info: ModelInfo
    private let loaded = Mutex<LoadedLlama?>(nil)

    /// `rules` are this backend's (the entry made them to read the header once).
    init(settings: LlamaSettings, rules: ModelAvailability) {
        self.settings = settings
        self.rules = rules
        // Identity comes from the header when the file is there; otherwise from its name, and
        // embeddings are not offered (their width is unknown until the file exists).
        let facts = rules.currentFacts()
        var capabilities: ModelCapabilities = [.streaming, .guidedJSON, .tools, .tokenCounting, .deterministic]
        if facts != nil { capabilities.insert(.embeddings) }
        let id = facts?.modelVersion ?? ModelVersion.make(path: settings.modelPath, fileType: nil)
        info = ModelInfo(
            id: id, displayName: "\(id) (local, \((settings.modelPath as NSString).lastPathComponent))", kind: .local,
            capabilities: capabilities,
            contextLength: facts.map { [rules] in rules.effectiveContext($0) } ?? settings.context ?? LlamaSettings.defaultContextCap,
            embeddingDimensions: facts?.embeddingLength ?? 0)
    }

    func availability(locale: String?) -> Availability { rules.check(locale: locale) }

    // MARK: Generation

    func generate(_ request: BackendRequest, events: PluginEventSink, cancellation: PluginCancellation) throws(BackendFailure) -> BackendResult {
        try rejectUnsupported(request.options)
        let model = try ready(locale: request.locale, cancellation: cancellation)
        let prompt = try ConversationPrompt(request, on: model)

        // Guidance is compiled before any model work, so a schema it cannot enforce fails at once.
        let tools = try ToolGuidance(request)
        var constraint: TokenConstraint?
        if let tools {
            constraint = try tools.constraint(vocabulary: try model.vocabularyForGuidance())
        } else if let schema = request.options.responseSchema {
            constraint = try Self.constraint(schemaText: schema, vocabulary: try model.vocabularyForGuidance())
        }

        let context = model.session.contextLength
        let requested = prompt.tokens.count + (request.options.maxTokens ?? 1)
        guard requested <= context else {
            var failure = BackendFailure(.exceededContextWindowSize,
                "the prompt (\(prompt.tokens.count) tokens) plus \(request.options.maxTokens ?? 1) response tokens need \(requested) tokens; the context window is \(context)")
            failure.contextLimit = UInt64(context)
            failure.contextRequested = UInt64(requested)
            throw failure
        }

        var loop = GenerationLoop(
            loaded: model, sampling: SamplingOptions(request.options, defaultSeed: settings.seed),
            maxTokens: request.options.maxTokens ?? (context - prompt.tokens.count),
            stopSequences: request.options.stopSequences ?? [], constraint: constraint, collectsDocument: tools != nil)
        let outcome = try loop.run(prompt: prompt.tokens, events: events, cancellation: cancellation)
        var finish = outcome.finish
        if let tools, finish == .stop {
            let call = try tools.call(from: outcome.text, number: 1)
            guard events.send(.toolCall(call)) else {
                return finished(.callback, prompt: prompt.tokens.count, output: outcome.outputTokens, events: events)
            }
            finish = .toolCalls
        } else if tools != nil {
            throw BackendFailure(.decoding, "the tool call was cut off (\(finish)) after \(outcome.outputTokens) tokens: \(outcome.text)")
        }
        return finished(finish, prompt: prompt.tokens.count, output: outcome.outputTokens, events: events)
    }

    private func finished(_ finish: FinishReason, prompt: Int, output: Int, events: PluginEventSink) -> BackendResult {
        let usage = Usage(promptTokens: prompt, outputTokens: output)
        if finish != .callback { _ = events.send(.usage(usage)) }
        return BackendResult(finish: finish, modelVersion: loaded.withLock { $0?.model.modelVersion } ?? info.id, usage: usage)
    }

    /// Options this backend cannot honour, named.
    private func rejectUnsupported(_ options: BackendOptions) throws(BackendFailure) {
        var names: [String] = []
        if options.thinkingLevel != nil { names.append("thinking_level") }
        if let budget = options.thinkingBudget, budget != 0 { names.append("thinking_budget") }
        guard names.isEmpty else {
            throw BackendFailure(.unsupportedOption, "\(info.id) cannot honour \(names.joined(separator: ", ")): it has no thinking mode")
        }
    }

    static func constraint(schemaText: String, vocabulary: TokenVocabulary) throws(BackendFailure) -> TokenConstraint {
        do {
            return try TokenConstraint(schemaText: schemaText, vocabulary: vocabulary)
        } catch let error as GuidedJSONError {
            let path = error.path.map { " at \($0)" } ?? ""
            switch error.code {
            case .unsupportedGuide, .schemaTooDeep:
                throw BackendFailure(.unsupportedGuide, "response_schema\(path): \(error.message)")
            default:
                throw BackendFailure(.invalidArgument, "response_schema\(path): \(error.message)")
            }
        } catch {
            throw BackendFailure(.invalidArgument, "response_schema: \(error)")
        }
    }

    // MARK: Embeddings and token counts

    /// Mean-pooled, L2-normalised final hidden states (the engine's `embed`), one fresh pass per
    /// text, so the chat's cached prefix is left alone. A chat model's embeddings are a weak
    /// similarity signal: fine for spotting near-duplicates, not a retrieval model. A text with no
    /// tokens (the empty string) embeds as the zero vector.
    func embed(_ texts: [String], cancellation: PluginCancellation) throws(BackendFailure) -> [[Float]] {
        let model = try ready(locale: nil, cancellation: cancellation)
        var vectors: [[Float]] = []
        for (index, text) in texts.enumerated() {
            if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled after \(index) of \(texts.count) embeddings") }
            let tokens = model.tokenizer.encode(text, addSpecial: true, parseSpecial: false)
            guard !tokens.isEmpty else {
                // No tokens, no content: the zero vector (its similarity to anything is 0).
                vectors.append([Float](repeating: 0, count: info.embeddingDimensions))
                continue
            }
            guard tokens.count <= model.session.contextLength else {
                var failure = BackendFailure(.exceededContextWindowSize, "inputs[\(index)] has \(tokens.count) tokens; the context window is \(model.session.contextLength)")
                failure.contextLimit = UInt64(model.session.contextLength)
                failure.contextRequested = UInt64(tokens.count)
                throw failure
            }
            do throws(LlamaError) {
                vectors.append(try model.model.embed(tokens: tokens, shouldCancel: { cancellation.isCancelled }))
            } catch {
                throw BackendFailure(error.code == .cancelled ? .cancelled : .invalidArgument, "inputs[\(index)]: \(error.detail)")
            }
        }
        return vectors
    }

    // MARK: Scoring text

    /// Every generating model scores text; a sentence encoder's file is served by `EncoderRunnerModel`.
    var offersLogLikelihood: Bool { true }

    func logLikelihood(of continuation: String, after context: String, cancellation: PluginCancellation) throws(BackendFailure) -> LogLikelihood {
        let model = try ready(locale: nil, cancellation: cancellation)
        return try model.scorer.logLikelihood(of: continuation, after: context, on: model.model, positions: model.session.contextLength,
                                              cancellation: cancellation)
    }

    func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int {
        let model = try ready(locale: request.locale, cancellation: PluginCancellation(nil))
        return try ConversationPrompt(request, on: model).tokens.count
    }

    // MARK: Loading

    /// The loaded model once availability allows it (waiting for a running checksum
    /// verification, failing with `badModelFile` when the file does not match its pin); loads it
    /// on first use.
    private func ready(locale: String?, cancellation: PluginCancellation) throws(BackendFailure) -> LoadedLlama {
        try rules.requireReady(id: info.id, locale: locale, cancellation: cancellation)
        if let model = loaded.withLock({ $0 }) { return model }
        guard let facts = rules.currentFacts() else {
            throw BackendFailure(.unavailable, "\(settings.modelPath) changed while it was being opened")
        }
        let model = try LoadedLlama(path: settings.modelPath, threads: settings.threads, context: rules.effectiveContext(facts))
        loaded.withLock { $0 = model }
        return model
    }
}
