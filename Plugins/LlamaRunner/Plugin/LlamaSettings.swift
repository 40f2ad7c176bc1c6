import TandemPluginKit

/// The backend's `settings` object in the config, checked. Unknown keys are rejected by the kit.
struct LlamaSettings: Sendable, Equatable {
    /// The default model, as `make model` fetches it.
    static let defaultModel = "models/SmolLM2-135M-Instruct.Q4_1.gguf"
    /// Context used when the setting is absent: the model's own, capped here because the KV cache
    /// grows with it and a chat rarely needs more.
    static let defaultContextCap = 4096

    /// The model file: the setting as written and the absolute path it names. A relative setting
    /// is relative to the config file's folder (the working directory when the host gives none).
    var model: SettingPath
    var modelPath: String { model.resolved }
    /// Lower-case hex SHA-256 the file must have, when pinned.
    var sha256: String?
    /// Compute threads; nil means every core the process may use.
    var threads: Int?
    /// Context window in tokens; nil means the model's own, capped at `defaultContextCap`.
    var context: Int?
    var enabled: Bool
    /// Seed for requests that give none; nil means a fresh random seed per request. Set it to make
    /// unseeded requests repeatable (tests, reproducible deployments).
    var seed: UInt64?
    /// What an embedding model (encoder) puts before every text it embeds. e5 models are trained
    /// with "query: " and "passage: "; the default is the model card's choice for symmetric
    /// similarity.
    var embeddingPrefix: String { embeddingPrefixSetting ?? Self.defaultEmbeddingPrefix }
    /// `embedding_prefix` as written. Given, it also says the backend is an embedding model while
    /// its file is missing or unreadable (when the header cannot tell).
    var embeddingPrefixSetting: String?
    static let defaultEmbeddingPrefix = "query: "

    init(_ settings: inout PluginSettings) throws(BackendFailure) {
        if let given = try settings.path("model") {
            model = given
        } else {
            model = try SettingPath(key: "model", given: Self.defaultModel, configDirectory: settings.configDirectory)
        }
        if let pin = settings.string("sha256") {
            let hex = pin.lowercased()
            guard hex.utf8.count == 64, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                throw BackendFailure(.invalidArgument, "setting sha256: expected 64 hexadecimal digits, got \"\(pin)\"")
            }
            sha256 = hex
        }
        threads = try settings.integer("threads", in: 1...256)
        context = try settings.integer("context", in: 16...(1 << 20))
        enabled = try settings.boolean("enabled") ?? true
        seed = try settings.integer("seed", in: 0...Int.max).map { UInt64($0) }
        embeddingPrefixSetting = settings.string("embedding_prefix")
        _ = try settings.choice("kind", among: ["local"])  // accepted for symmetry with other backends; always local
    }
}
