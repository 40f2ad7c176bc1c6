import CTandemABI
import Synchronization

/// A `Backend` over a plugin's `tandem_model`: Swift values in, C structs across, Swift values
/// back, every plugin answer checked. Owns the model and destroys it when released.
///
/// - Note: Thread-safe. `generate`, `embed` and `countTokens` block; calls that would overlap
///   on a model without `.concurrentCalls` fail with `concurrentRequests` instead of reaching the
///   plugin (the ABI promises plugins no overlap).
public final class PluginBackend: Backend, @unchecked Sendable {
    public let backendID: String
    public let plugin: LoadedPlugin
    /// The plugin's model table, for the conformance suite and the benchmark's direct calls.
    package let model: UnsafePointer<tandem_model>
    public let info: ModelInfo
    /// The model's `tandem.token_embeddings/1` table, when it offers one with its function.
    private let tokenEmbeddingsTable: UnsafePointer<tandem_token_embeddings_ext>?
    /// The model's `tandem.log_likelihood/1` table, when it offers one with its function.
    private let logLikelihoodTable: UnsafePointer<tandem_log_likelihood_ext>?
    private let busy = Atomic<Bool>(false)

    /// Takes ownership of `model` (destroying it if its info is unusable).
    init(backendID: String, plugin: LoadedPlugin, model: UnsafePointer<tandem_model>) throws(BackendFailure) {
        self.backendID = backendID
        self.plugin = plugin
        self.model = model
        do throws(BackendFailure) {
            let info = try Self.readInfo(model, pluginID: plugin.id)
            self.info = info
            tokenEmbeddingsTable = try Self.tokenEmbeddingsTable(model, info: info, pluginID: plugin.id)
            logLikelihoodTable = try Self.logLikelihoodTable(model, pluginID: plugin.id)
        } catch {
            model.pointee.destroy?(model)
            throw error
        }
    }

    deinit {
        model.pointee.destroy?(model)
    }

    private static func readInfo(_ model: UnsafePointer<tandem_model>, pluginID: String) throws(BackendFailure) -> ModelInfo {
        guard let pointer = model.pointee.info?(model) else { throw BackendFailure(.initFailed, "\(pluginID): info() returned NULL") }
        let size = pointer.pointee.struct_size
        guard structHasField(pointer, structSize: size, \.caps) else {
            throw BackendFailure(.initFailed, "\(pluginID): model info struct_size \(size) is too small")
        }
        let raw = pointer.pointee
        guard let id = raw.id.map({ String(cString: $0) }), !id.isEmpty else {
            throw BackendFailure(.initFailed, "\(pluginID): the model id is NULL or empty")
        }
        guard let kind = ModelKind(cValue: raw.kind) else {
            throw BackendFailure(.initFailed, "\(pluginID): model kind \(raw.kind) is unknown")
        }
        let capabilities = ModelCapabilities(rawValue: raw.caps)
        let dims = structHasField(pointer, structSize: size, \.embedding_dims) ? Int(raw.embedding_dims) : 0
        if capabilities.contains(.embeddings), model.pointee.embed == nil || dims == 0 {
            throw BackendFailure(.initFailed, "\(pluginID): declares embeddings but embed is NULL or embedding_dims is 0")
        }
        if capabilities.contains(.tokenCounting), model.pointee.count_tokens == nil {
            throw BackendFailure(.initFailed, "\(pluginID): declares token counting but count_tokens is NULL")
        }
        return ModelInfo(
            id: id, displayName: raw.display_name.map { String(cString: $0) } ?? id, kind: kind, capabilities: capabilities,
            contextLength: structHasField(pointer, structSize: size, \.context_length) ? Int(raw.context_length) : 0,
            embeddingDimensions: dims)
    }

    /// The model's answer to get_extension(TANDEM_EXT_TOKEN_EMBEDDINGS), asked once here: nil when
    /// it has none (NULL, no get_extension, or no embeddings); a table too small to hold its
    /// function, or with a NULL one, is a broken plugin.
    private static func tokenEmbeddingsTable(
        _ model: UnsafePointer<tandem_model>, info: ModelInfo, pluginID: String
    ) throws(BackendFailure) -> UnsafePointer<tandem_token_embeddings_ext>? {
        guard info.capabilities.contains(.embeddings), let raw = model.pointee.get_extension?(model, TANDEM_EXT_TOKEN_EMBEDDINGS) else { return nil }
        let table = raw.assumingMemoryBound(to: tandem_token_embeddings_ext.self)
        guard structHasField(table, structSize: table.pointee.struct_size, \.token_embeddings), table.pointee.token_embeddings != nil else {
            throw BackendFailure(.initFailed, "\(pluginID): the \(TANDEM_EXT_TOKEN_EMBEDDINGS) table (struct_size \(table.pointee.struct_size)) "
                                 + "has no token_embeddings function")
        }
        return table
    }

    /// The model's answer to get_extension(TANDEM_EXT_LOG_LIKELIHOOD), asked once here, with the
    /// same rules as `tokenEmbeddingsTable`.
    private static func logLikelihoodTable(
        _ model: UnsafePointer<tandem_model>, pluginID: String
    ) throws(BackendFailure) -> UnsafePointer<tandem_log_likelihood_ext>? {
        guard let raw = model.pointee.get_extension?(model, TANDEM_EXT_LOG_LIKELIHOOD) else { return nil }
        let table = raw.assumingMemoryBound(to: tandem_log_likelihood_ext.self)
        guard structHasField(table, structSize: table.pointee.struct_size, \.log_likelihood), table.pointee.log_likelihood != nil else {
            throw BackendFailure(.initFailed, "\(pluginID): the \(TANDEM_EXT_LOG_LIKELIHOOD) table (struct_size \(table.pointee.struct_size)) "
                                 + "has no log_likelihood function")
        }
        return table
    }

    // MARK: Availability

    public func availability(locale: String?) -> Availability {
        let capacity = 512
        let detail = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        defer { detail.deallocate() }
        detail[0] = 0
        var out = tandem_availability(
            struct_size: UInt32(MemoryLayout<tandem_availability>.size), reason: TANDEM_REASON_UNKNOWN, detail: detail,
            detail_capacity: capacity, progress: -1)
        let status = locale.withOptionalCString { model.pointee.availability!(model, $0, &out) }
        detail[capacity - 1] = 0
        let text = String(cString: detail)
        guard status == TANDEM_OK else {
            return .unavailable(.unknown, detail: "\(plugin.id): availability() returned \(BackendStatus(rawValue: status).name)")
        }
        guard out.reason != TANDEM_REASON_NONE else { return .available }
        let reason = AvailabilityReason.all.contains(AvailabilityReason(rawValue: out.reason)) ? AvailabilityReason(rawValue: out.reason) : .unknown
        return .unavailable(reason, detail: text, progress: out.progress >= 0 ? min(out.progress, 1) : nil)
    }

    // MARK: Generation

    public func generate(
        _ request: BackendRequest, cancellation: CancellationToken, onEvent: (BackendEvent) -> Bool
    ) throws(BackendFailure) -> BackendResult {
        if let problem = request.options.validationProblem() { throw BackendFailure(.invalidArgument, problem) }
        guard !request.messages.isEmpty else { throw BackendFailure(.invalidArgument, "the request has no messages") }
        return try exclusive { () throws(BackendFailure) -> BackendResult in
            let outcome: Result<BackendResult, BackendFailure> = withoutActuallyEscaping(onEvent) { onEvent in
                let sink = StreamSink(onEvent)
                let cancel = CancelBridge(cancellation, pluginID: plugin.id)
                return request.withCRequest { cRequest in
                    withExtendedLifetime((sink, cancel)) { callGenerate(cRequest, sink: sink, cancel: cancel) }
                }
            }
            return try outcome.get()
        }
    }

    private func callGenerate(_ request: UnsafePointer<tandem_request>, sink: StreamSink, cancel: CancelBridge) -> Result<BackendResult, BackendFailure> {
        var stream = tandem_stream(
            struct_size: UInt32(MemoryLayout<tandem_stream>.size), user_data: Unmanaged.passUnretained(sink).toOpaque(),
            on_event: { data, event in Unmanaged<StreamSink>.fromOpaque(data!).takeUnretainedValue().deliver(event) })
        var cCancel = cancel.cToken
        let versionCapacity = 256
        let version = UnsafeMutablePointer<CChar>.allocate(capacity: versionCapacity)
        defer { version.deallocate() }
        version[0] = 0
        var result = tandem_result()
        result.struct_size = UInt32(MemoryLayout<tandem_result>.size)
        result.finish = TANDEM_FINISH_ERROR
        result.model_version = version
        result.model_version_capacity = versionCapacity
        let (status, failure) = BackendFailure.capture { error in
            model.pointee.generate!(model, request, &stream, &cCancel, &result, error)
        }
        cancel.finishCall()
        version[versionCapacity - 1] = 0
        if let broken = sink.failure { return .failure(broken) }
        guard status == TANDEM_OK else { return .failure(named(failure, status: status, call: "generate")) }
        return .success(BackendResult(
            finish: FinishReason(rawValue: result.finish), modelVersion: String(cString: version),
            usage: Usage(promptTokens: Int(result.prompt_tokens), outputTokens: Int(result.output_tokens), thinkingTokens: Int(result.thinking_tokens))))
    }

    // MARK: Embeddings and token counts

    public func embed(_ texts: [String], cancellation: CancellationToken) throws(BackendFailure) -> [[Float]] {
        guard let embed = model.pointee.embed, info.capabilities.contains(.embeddings) else {
            throw BackendFailure(.unsupportedOption, "\(backendID) (\(info.id)) does not compute embeddings")
        }
        guard !texts.isEmpty else { return [] }
        return try exclusive { () throws(BackendFailure) -> [[Float]] in
            let cancel = CancelBridge(cancellation, pluginID: plugin.id)
            defer { cancel.finishCall() }
            var cCancel = cancel.cToken
            let rows = withCStrArray(texts) { inputs, count -> Result<[[Float]], BackendFailure> in
                var required = 0
                var dims: UInt32 = 0
                // Call 1: no buffer, to learn the size (the two-call idiom).
                let (sizing, sizingFailure) = BackendFailure.capture { error in
                    embed(model, inputs, count, nil, 0, &required, &dims, &cCancel, error)
                }
                guard sizing == TANDEM_E_BUFFER_TOO_SMALL else {
                    if sizing == TANDEM_OK { return .failure(BackendFailure(.decoding, "\(plugin.id): embed returned OK with no buffer")) }
                    return .failure(named(sizingFailure, status: sizing, call: "embed"))
                }
                let width = Int(dims)
                guard width > 0, required == count * width else {
                    return .failure(BackendFailure(.decoding, "\(plugin.id): embed asked for \(required) floats for \(count) texts of \(dims) dimensions"))
                }
                var vectors = [Float](repeating: 0, count: required)
                let (status, failure) = vectors.withUnsafeMutableBufferPointer { buffer in
                    BackendFailure.capture { error in
                        embed(model, inputs, count, buffer.baseAddress, buffer.count, &required, &dims, &cCancel, error)
                    }
                }
                guard status == TANDEM_OK else { return .failure(named(failure, status: status, call: "embed")) }
                return .success((0..<count).map { Array(vectors[($0 * width)..<(($0 + 1) * width)]) })
            }
            return try rows.get()
        }
    }

    public var offersTokenEmbeddings: Bool { tokenEmbeddingsTable != nil }

    /// One call with room for the model's whole context, so that the encoder runs once; a text the
    /// plugin says needs more (it cut nothing) gets a second call of the size it asked for.
    public func tokenEmbeddings(_ text: String, cancellation: CancellationToken) throws(BackendFailure) -> TokenEmbeddings {
        guard let function = tokenEmbeddingsTable?.pointee.token_embeddings else {
            throw BackendFailure(.unsupportedOption, "\(backendID) (\(info.id)) does not give per-token states (\(TANDEM_EXT_TOKEN_EMBEDDINGS))")
        }
        let width = info.embeddingDimensions
        return try exclusive { () throws(BackendFailure) -> TokenEmbeddings in
            let cancel = CancelBridge(cancellation, pluginID: plugin.id)
            defer { cancel.finishCall() }
            var cCancel = cancel.cToken
            let answer = withCStrArray([text]) { input, _ -> Result<TokenEmbeddings, BackendFailure> in
                // First asked with no room: the too-small answer gives the token count from
                // tokenising alone (tandem_abi.h), and the buffers are then made to fit (they were
                // made for the whole context: 6 MB zeroed per call for 2048 states of 768 floats).
                var capacity = 0
                while true {
                    var ids = [Int32](repeating: 0, count: capacity)
                    var states = [Float](repeating: 0, count: capacity * width)
                    var required = 0
                    var dims: UInt32 = 0
                    let (status, failure) = ids.withUnsafeMutableBufferPointer { idBuffer in
                        states.withUnsafeMutableBufferPointer { stateBuffer in
                            BackendFailure.capture { error in
                                function(model, input![0], idBuffer.baseAddress, stateBuffer.baseAddress, capacity, &required, &dims, &cCancel, error)
                            }
                        }
                    }
                    if status == TANDEM_E_BUFFER_TOO_SMALL, required > capacity, Int(dims) == width {
                        // A text is cut to the model's positions, so no answer needs more.
                        guard required <= max(info.contextLength, 1) else {
                            return .failure(BackendFailure(.decoding, "\(plugin.id): token_embeddings asked room for \(required) "
                                                           + "tokens, more than the model's \(info.contextLength) positions"))
                        }
                        capacity = required
                        continue
                    }
                    guard status == TANDEM_OK else { return .failure(named(failure, status: status, call: "token_embeddings")) }
                    guard Int(dims) == width, required <= capacity else {
                        return .failure(BackendFailure(.decoding, "\(plugin.id): token_embeddings wrote \(required) tokens of \(dims) "
                                                       + "dimensions (capacity \(capacity), the model's width \(width))"))
                    }
                    return .success(TokenEmbeddings(ids: Array(ids[..<required]),
                                                    states: (0..<required).map { Array(states[($0 * width)..<(($0 + 1) * width)]) }))
                }
            }
            return try answer.get()
        }
    }

    public var offersLogLikelihood: Bool { logLikelihoodTable != nil }

    public func logLikelihood(of continuation: String, after context: String, cancellation: CancellationToken) throws(BackendFailure) -> LogLikelihood {
        guard let function = logLikelihoodTable?.pointee.log_likelihood else {
            throw BackendFailure(.unsupportedOption, "\(backendID) (\(info.id)) does not score text (\(TANDEM_EXT_LOG_LIKELIHOOD))")
        }
        guard !continuation.isEmpty else { throw BackendFailure(.invalidArgument, "the continuation to score is empty") }
        return try exclusive { () throws(BackendFailure) -> LogLikelihood in
            let cancel = CancelBridge(cancellation, pluginID: plugin.id)
            defer { cancel.finishCall() }
            var cCancel = cancel.cToken
            let answer = withCStrArray([context, continuation]) { texts, _ -> Result<LogLikelihood, BackendFailure> in
                var value = Double.nan
                var tokens: UInt32 = 0
                let (status, failure) = BackendFailure.capture { error in
                    function(model, texts![0], texts![1], &value, &tokens, &cCancel, error)
                }
                guard status == TANDEM_OK else { return .failure(named(failure, status: status, call: "log_likelihood")) }
                return Result { () throws(BackendFailure) in try LogLikelihood.checked(value: value, tokens: Int(tokens), from: plugin.id) }
            }
            return try answer.get()
        }
    }

    public func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int {
        guard let count = model.pointee.count_tokens, info.capabilities.contains(.tokenCounting) else {
            throw BackendFailure(.unsupportedOption, "\(backendID) (\(info.id)) does not count tokens")
        }
        return try exclusive { () throws(BackendFailure) -> Int in
            var tokens: UInt32 = 0
            let (status, failure) = request.withCRequest { cRequest in
                BackendFailure.capture { error in count(model, cRequest, &tokens, error) }
            }
            guard status == TANDEM_OK else { throw named(failure, status: status, call: "count_tokens") }
            return Int(tokens)
        }
    }

    // MARK: Helpers

    /// Runs a per-model call, refusing overlap unless the model allows concurrent calls.
    private func exclusive<R>(_ body: () throws(BackendFailure) -> R) throws(BackendFailure) -> R {
        if info.capabilities.contains(.concurrentCalls) { return try body() }
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            throw BackendFailure(.concurrentRequests, "\(backendID) (\(info.id)) is already running a request")
        }
        defer { busy.store(false, ordering: .releasing) }
        return try body()
    }

    /// A plugin's failure, with a message that says who failed even when the plugin gave none.
    private func named(_ failure: BackendFailure, status: tandem_status, call: String) -> BackendFailure {
        var failure = failure
        if status > 0 {
            failure.status = .unknown
            failure.message = "\(plugin.id): \(call) returned the positive status \(status), which the ABI does not allow"
        } else if failure.message.isEmpty {
            failure.message = "\(plugin.id): \(call) failed with \(failure.status.name) and no message"
        }
        return failure
    }
}

extension Optional<String> {
    fileprivate func withOptionalCString<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
        switch self {
        case .some(let text): text.withCString { body($0) }
        case .none: body(nil)
        }
    }
}
