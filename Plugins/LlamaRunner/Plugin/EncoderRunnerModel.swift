import Foundation
import LlamaEngine
import Synchronization
import TandemPluginKit

/// A `tandem.llama` backend whose file is a sentence encoder (architecture `bert`, e.g.
/// multilingual-e5-small): embeddings only. Availability follows the runner's rules
/// (`ModelAvailability`); the encoder is loaded on the first embed call and kept.
///
/// Each text is embedded as `embedding_prefix` + text (e5 models are trained with "query: " and
/// "passage: " prefixes; "query: " is the model card's choice for symmetric similarity), cut to
/// the model's positions (512 tokens for e5, specials included). The empty text is the zero
/// vector, as on the chat model.
final class EncoderRunnerModel: PluginModel, @unchecked Sendable {
    let settings: LlamaSettings
    let rules: ModelAvailability
    let info: ModelInfo
    private let loaded = Mutex<EncoderModel?>(nil)

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

    /// The texts are embedded together (`EncoderModel.embed(tokenLists:)`: several per pass, each
    /// vector as if alone); cancellation is checked before every layer of every pass.
    func embed(_ texts: [String], cancellation: PluginCancellation) throws(BackendFailure) -> [[Float]] {
        let model = try ready(cancellation: cancellation)
        if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled after 0 of \(texts.count) embeddings") }
        let embedded = texts.indices.filter { !texts[$0].isEmpty }
        let computed: [[Float]]
        do throws(LlamaError) {
            computed = try model.embed(tokenLists: embedded.map { model.tokens(for: settings.embeddingPrefix + texts[$0]) },
                                       shouldCancel: { cancellation.isCancelled })
        } catch {
            throw BackendFailure(error.code == .cancelled ? .cancelled : .invalidArgument, error.detail)
        }
        var vectors = [[Float]](repeating: [Float](repeating: 0, count: model.dimensions), count: texts.count)
        for (index, vector) in zip(embedded, computed) { vectors[index] = vector }
        return vectors
    }

    /// The loaded encoder once availability allows it (waiting for a running checksum
    /// verification); loads it on first use.
    private func ready(cancellation: PluginCancellation) throws(BackendFailure) -> EncoderModel {
        try rules.requireReady(id: info.id, locale: nil, cancellation: cancellation)
        if let model = loaded.withLock({ $0 }) { return model }
        let model: EncoderModel
        do {
            model = try EncoderModel(path: settings.modelPath, threads: settings.threads)
        } catch {
            throw BackendFailure(.badModelFile, "cannot load \(settings.modelPath): \(error)")
        }
        loaded.withLock { $0 = model }
        return model
    }
}
