import Foundation
import LlamaEngine
import Synchronization
import TandemPluginKit

/// A `tandem.llama` backend whose file is a sentence encoder (architecture `bert`, e.g.
/// multilingual-e5-small, or `gemma-embedding`, EmbeddingGemma): embeddings only. Availability follows the runner's rules
/// (`ModelAvailability`); the encoder is loaded on the first embed call and kept.
///
/// Each text is embedded as `embedding_prefix` + text (e5 models are trained with "query: " and
/// "passage: " prefixes; "query: " is the model card's choice for symmetric similarity;
/// EmbeddingGemma's model card names "task: sentence similarity | query: "), cut to the model's
/// positions (512 tokens for e5, specials included). The empty text is the zero
/// vector, as on the chat model.
///
/// It also offers `tandem.token_embeddings/1` (tandem_abi.h): the same encoder pass as embed's
/// on `embedding_prefix` + text, each token's state returned, for the text's own tokens only. The
/// prefix's tokens are the leading ones the sequence shares with the prefix tokenised alone (a
/// text that begins with punctuation can start with the word marker the prefix's space became:
/// that one is the prefix's); the start and end markers are left out too.
///
/// The novelty gate asks for a candidate's embedding and then its token states (or the other way
/// round), and the library asks for a batch of quotes' embeddings and then each one's token
/// states: the last call's passes are kept (up to `keptTexts` texts), so the second call reuses
/// them (`SentenceEncoder.pooled` gives embed's very vector from the states, and a text's states
/// are the same whichever texts shared its pass).
final class EncoderRunnerModel: PluginModel, @unchecked Sendable {
    let settings: LlamaSettings
    let rules: ModelAvailability
    let info: ModelInfo
    private let loaded = Mutex<(any SentenceEncoder)?>(nil)
    /// The states of the last call's texts by their tokens (at most `keptTexts` texts, each at
    /// most the model's context × the width).
    private let lastPasses = Mutex<[[Int32]: [[Float]]]>([:])
    /// As many as the library embeds per batch (LibraryEmbedding).
    static let keptTexts = 64

    /// `facts` are the file's, read at open; nil when the file is missing or unreadable. Then the
    /// id comes from the file name and embeddings are not offered (their width is unknown), as
    /// on the chat runner; availability says what is wrong with the file.
    init(settings: LlamaSettings, rules: ModelAvailability, facts: ModelFileFacts?) {
        self.settings = settings
        self.rules = rules
        let id = facts?.modelVersion ?? ModelVersion.make(path: settings.modelPath, fileType: nil)
        info = ModelInfo(
            id: id, displayName: "\(id) (local embeddings, \((settings.modelPath as NSString).lastPathComponent))",
            kind: .local, capabilities: facts != nil ? [.embeddings, .embeddingsOnly, .deterministic] : [.embeddingsOnly],
            contextLength: facts?.contextLength ?? 0, embeddingDimensions: facts?.embeddingLength ?? 0)
    }

    func availability(locale: String?) -> Availability { rules.check(locale: locale) }

    func generate(_ request: BackendRequest, events: PluginEventSink, cancellation: PluginCancellation) throws(BackendFailure) -> BackendResult {
        throw BackendFailure(.unsupportedOption, "\(info.id) is an embedding model (a sentence encoder): it cannot generate text; use embed")
    }

    /// The texts are embedded together (`SentenceEncoder.tokenStates(tokenLists:)`: several per
    /// pass, each text's states as if alone); cancellation is checked before every layer of every pass.
    func embed(_ texts: [String], cancellation: PluginCancellation) throws(BackendFailure) -> [[Float]] {
        let model = try ready(cancellation: cancellation)
        if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled after 0 of \(texts.count) embeddings") }
        let embedded = texts.indices.filter { !texts[$0].isEmpty }
        let computed: [[Float]]
        do throws(LlamaError) {
            let lists = embedded.map { model.tokens(for: settings.embeddingPrefix + texts[$0]) }
            computed = try states(of: lists, model: model, cancellation: cancellation).map(model.pooled)
        } catch {
            throw BackendFailure(error.code == .cancelled ? .cancelled : .invalidArgument, error.detail)
        }
        var vectors = [[Float]](repeating: [Float](repeating: 0, count: model.dimensions), count: texts.count)
        for (index, vector) in zip(embedded, computed) { vectors[index] = vector }
        return vectors
    }

    var offersTokenEmbeddings: Bool { info.capabilities.contains(.embeddings) }

    func tokenEmbeddingCount(of text: String) throws(BackendFailure) -> Int {
        let model = try ready(cancellation: PluginCancellation(nil))
        return ownTokens(of: text, model: model).range.count
    }

    func tokenEmbeddings(of text: String, cancellation: PluginCancellation) throws(BackendFailure) -> TokenEmbeddings {
        let model = try ready(cancellation: cancellation)
        let (tokens, own) = ownTokens(of: text, model: model)
        guard !own.isEmpty else { return TokenEmbeddings(ids: [], states: []) }
        do throws(LlamaError) {
            let states = try states(of: [tokens], model: model, cancellation: cancellation)[0]
            return TokenEmbeddings(ids: Array(tokens[own]), states: Array(states[own]))
        } catch {
            throw BackendFailure(error.code == .cancelled ? .cancelled : .invalidArgument, "text: \(error.detail)")
        }
    }

    /// Every token's state of each text: the kept passes' when the last call ran all of them,
    /// else new passes, kept in their place when there are at most `keptTexts` texts.
    private func states(of lists: [[Int32]], model: any SentenceEncoder, cancellation: PluginCancellation) throws(LlamaError) -> [[[Float]]] {
        let kept = lastPasses.withLock { kept in lists.compactMap { kept[$0] } }
        if kept.count == lists.count { return kept }
        let states = try model.tokenStates(tokenLists: lists, shouldCancel: { cancellation.isCancelled })
        if lists.count <= Self.keptTexts {
            lastPasses.withLock { $0 = Dictionary(zip(lists, states), uniquingKeysWith: { first, _ in first }) }
        }
        return states
    }

    /// The tokens embed runs on `text` and the range of them that is the text's own (after the
    /// start marker and the prefix, before the end marker). The empty text has none (embed does
    /// not run it either).
    private func ownTokens(of text: String, model: any SentenceEncoder) -> (tokens: [Int32], range: Range<Int>) {
        guard !text.isEmpty else { return ([], 0..<0) }
        let tokens = model.tokens(for: settings.embeddingPrefix + text)
        let lead = model.tokens(for: settings.embeddingPrefix).dropLast()
        let start = zip(lead, tokens).prefix { $0 == $1 }.count
        return (tokens, start..<max(start, tokens.count - 1))
    }

    /// The loaded encoder once availability allows it (waiting for a running checksum
    /// verification); loads it on first use.
    private func ready(cancellation: PluginCancellation) throws(BackendFailure) -> any SentenceEncoder {
        try rules.requireReady(id: info.id, locale: nil, cancellation: cancellation)
        if let model = loaded.withLock({ $0 }) { return model }
        let model: any SentenceEncoder
        do {
            model = try loadSentenceEncoder(path: settings.modelPath, threads: settings.threads)
        } catch {
            throw BackendFailure(.badModelFile, "cannot load \(settings.modelPath): \(error)")
        }
        loaded.withLock { $0 = model }
        return model
    }
}
