import Glibc
import TandemBridge
import TandemPluginKit

/// Everything a cloud model is opened with. The keys are documented in Plugins/CloudHTTPS/README.md.
public struct CloudSettings: Sendable {
    public var dialect: DialectKind
    public var model: String
    public var displayName: String
    public var endpoint: Endpoint
    public var key: APIKeySource
    public var caFile: String?
    public var stream: Bool
    public var timeouts: TransportTimeouts
    public var totalTimeoutMilliseconds: Int64
    public var retry: RetryPolicy
    public var embeddingModel: String
    public var embeddingDimensions: Int
    /// Sent as outputDimensionality / dimensions only when set explicitly.
    public var requestEmbeddingDimensions: Bool
    public var contextLength: Int
    public var maxTokensField: MaxTokensField
    /// Largest non-streamed body (and error body) accepted.
    public var maxResponseBytes: Int

    public init(
        dialect: DialectKind, model: String, endpoint: Endpoint, key: APIKeySource, caFile: String? = nil,
        stream: Bool = true, timeouts: TransportTimeouts = TransportTimeouts(), totalTimeoutMilliseconds: Int64 = 300_000,
        retry: RetryPolicy = RetryPolicy(), embeddingModel: String? = nil, embeddingDimensions: Int? = nil,
        contextLength: Int = 0, maxTokensField: MaxTokensField = .maxCompletionTokens, maxResponseBytes: Int = 32 << 20,
        displayName: String? = nil
    ) {
        self.dialect = dialect
        self.model = model
        self.endpoint = endpoint
        self.key = key
        self.caFile = caFile
        self.stream = stream
        self.timeouts = timeouts
        self.totalTimeoutMilliseconds = totalTimeoutMilliseconds
        self.retry = retry
        self.embeddingModel = embeddingModel ?? dialect.defaultEmbeddingModel
        self.embeddingDimensions = embeddingDimensions ?? dialect.defaultEmbeddingDimensions
        self.requestEmbeddingDimensions = embeddingDimensions != nil
        self.contextLength = contextLength
        self.maxTokensField = maxTokensField
        self.maxResponseBytes = maxResponseBytes
        self.displayName = displayName ?? "\(dialect == .gemini ? "Gemini" : "OpenAI-compatible") \(model)"
    }

    /// Reads and validates the plugin's settings; every key accepted is read here.
    public init(_ s: inout PluginSettings) throws(BackendFailure) {
        if s.values["api_key"] != nil {
            throw BackendFailure(.invalidArgument, "setting api_key is not accepted: a key never goes into a config; name an environment variable (api_key_env) or a key file (api_key_file)")
        }
        guard let dialectName = try s.choice("dialect", among: DialectKind.allCases.map(\.rawValue)) else {
            throw BackendFailure(.invalidArgument, "setting dialect is required: gemini or openai")
        }
        let dialect = DialectKind(rawValue: dialectName)!
        guard let model = s.string("model"), !model.isEmpty else {
            throw BackendFailure(.invalidArgument, "setting model is required (e.g. gemini-2.5-flash or gpt-4o-mini)")
        }
        if dialect == .gemini, !model.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) {
            throw BackendFailure(.invalidArgument, "setting model: \(model) is not a Gemini model id ([A-Za-z0-9._-])")
        }
        let endpoint = try Endpoint(s.string("base_url") ?? dialect.defaultBaseURL)

        let keyFile = try s.path("api_key_file")?.resolved
        let keyVariable = s.string("api_key_env")
        let keyRequired = try s.boolean("api_key_required") ?? true
        let origin: APIKeySource.Origin
        switch (keyFile, keyVariable, keyRequired) {
        case (.some, .some, _):
            throw BackendFailure(.invalidArgument, "settings api_key_file and api_key_env exclude each other")
        case (.some(let path), nil, true): origin = .file(path)
        case (nil, let name, true): origin = .environment(name ?? dialect.defaultKeyVariable)
        case (_, _, false):
            if keyFile != nil || keyVariable != nil {
                throw BackendFailure(.invalidArgument, "setting api_key_required is false, so api_key_file / api_key_env must not be set")
            }
            origin = .none
        }
        if dialect == .gemini, origin == .none {
            throw BackendFailure(.invalidArgument, "setting api_key_required: the Gemini API always needs a key")
        }

        var caFile: String?
        if let path = try s.path("ca_file") {
            guard access(path.resolved, R_OK) == 0 else {
                throw BackendFailure(.invalidArgument, "\(path): \(path.resolved) is not a readable file")
            }
            caFile = path.resolved
        }
        let defaults = TransportTimeouts()
        let timeouts = TransportTimeouts(
            connectMilliseconds: Int64(try s.integer("connect_timeout_ms", in: 1...600_000) ?? Int(defaults.connectMilliseconds)),
            firstByteMilliseconds: Int64(try s.integer("first_byte_timeout_ms", in: 1...3_600_000) ?? Int(defaults.firstByteMilliseconds)),
            idleMilliseconds: Int64(try s.integer("idle_timeout_ms", in: 1...3_600_000) ?? Int(defaults.idleMilliseconds)))
        let total = Int64(try s.integer("total_timeout_ms", in: 1...86_400_000) ?? 300_000)
        let retryDefaults = RetryPolicy()
        let retry = RetryPolicy(
            maxAttempts: try s.integer("max_attempts", in: 1...10) ?? retryDefaults.maxAttempts,
            baseDelayMilliseconds: Int64(try s.integer("retry_base_delay_ms", in: 1...60_000) ?? Int(retryDefaults.baseDelayMilliseconds)),
            maxDelayMilliseconds: Int64(try s.integer("retry_max_delay_ms", in: 1...600_000) ?? Int(retryDefaults.maxDelayMilliseconds)),
            maxServerDelayMilliseconds: Int64(try s.integer("max_retry_wait_ms", in: 0...600_000) ?? Int(retryDefaults.maxServerDelayMilliseconds)))
        let maxTokensField = try s.choice("max_tokens_field", among: MaxTokensField.allCases.map(\.rawValue)).map { MaxTokensField(rawValue: $0)! }
        if dialect == .gemini, maxTokensField != nil {
            throw BackendFailure(.invalidArgument, "setting max_tokens_field applies only to the openai dialect")
        }
        self.init(
            dialect: dialect, model: model, endpoint: endpoint, key: APIKeySource(origin: origin), caFile: caFile,
            stream: try s.boolean("stream") ?? true, timeouts: timeouts, totalTimeoutMilliseconds: total, retry: retry,
            embeddingModel: s.string("embedding_model"),
            embeddingDimensions: try s.integer("embedding_dimensions", in: 1...65_536),
            contextLength: try s.integer("context_length", in: 0...100_000_000) ?? 0,
            maxTokensField: maxTokensField ?? .maxCompletionTokens,
            maxResponseBytes: try s.integer("max_response_bytes", in: 1024...(1 << 30)) ?? (32 << 20),
            displayName: s.string("display_name"))
    }
}
