import QuoteLibrary
import Tandem

/// The novelty gate's embedder over a backend with the embeddings capability (the config's
/// `quote.embedder`). The vector space, and the novelty calibration, are named by the model's
/// own id (`tandem.llama` derives it from the model file), so vectors of another model (or of
/// the lexical embedder) are never compared with these.
///
/// Per-token states come from the backend's `tandem.token_embeddings/1` extension (tandem_abi.h),
/// which the host asks the plugin for once, when the model is opened: `offersTokenStates` is
/// that answer, and the novelty gate says in its verdict whether it had them.
public struct HostEmbedder: Embedder {
    let languageModel: LanguageModel
    private let call: BackendCall

    public init(model: LanguageModel) {
        languageModel = model
        call = BackendCall(languageModel: model, role: "embedding backend")
    }

    /// The config's `quote.embedder` backend, checked for the embeddings capability; nil when unset.
    public static func configuredModel(host: TandemHost) throws(ConfigError) -> LanguageModel? {
        let config = host.config
        return try config.quote.embedder.map { id throws(ConfigError) -> LanguageModel in
            let model = try host.model(id, keyPath: "quote.embedder")
            guard model.info.capabilities.contains(.embeddings) else {
                // tandem.llama offers embeddings only once its model file is there: say why.
                var why = ""
                if case .unavailable(let reason, let detail, _) = model.availability { why = " (\(reason.name): \(detail))" }
                throw ConfigError(.invalidValue, file: config.file, keyPath: "quote.embedder",
                                  "backend \"\(id)\" (model \(model.info.id)) has no embeddings capability\(why)")
            }
            return model
        }
    }

    /// The embedder for `model`, or the model-free `LexicalEmbedder` when none is configured.
    public static func embedder(for model: LanguageModel?) -> Embedder {
        model.map { HostEmbedder(model: $0) as Embedder } ?? LexicalEmbedder()
    }

    public var model: String { languageModel.info.id }

    public func embed(_ text: String) async throws -> [Float] {
        try await embed(batch: [text])[0]
    }

    /// One backend call for the whole batch.
    public func embed(batch texts: [String]) async throws -> [[Float]] {
        let vectors = try await call.run { backend, token throws(BackendFailure) in try backend.embed(texts, cancellation: token) }
        guard vectors.count == texts.count else {
            throw BackendFailure(.decoding, "\(languageModel.id) returned \(vectors.count) vectors for \(texts.count) texts")
        }
        return vectors
    }

    public var offersTokenStates: Bool { languageModel.backend.offersTokenEmbeddings }

    /// One backend call: the encoder pass of `embed(text)`, its states unpooled.
    public func tokenStates(_ text: String) async throws -> TokenStates {
        let answer = try await call.run { backend, token throws(BackendFailure) in try backend.tokenEmbeddings(text, cancellation: token) }
        return TokenStates(ids: answer.ids, states: answer.states)
    }
}
