import CTandemABI
import Glibc
import Synchronization
import TandemBridge

/// Owns a `PluginModel` behind a C `tandem_model` table. Allocated by `open_model`, freed by the
/// table's `destroy`. The C info struct and its strings live as long as the box.
final class PluginModelBox: Sendable {
    let model: any PluginModel
    /// Set while a generate/embed/count call runs, to refuse overlap when the model is not
    /// concurrent.
    private let busy = Atomic<Bool>(false)
    nonisolated(unsafe) private let cInfo: UnsafeMutablePointer<tandem_model_info>
    nonisolated(unsafe) private let cStrings: [UnsafeMutablePointer<CChar>]

    init(model: any PluginModel) {
        self.model = model
        let info = model.info
        let id = strdup(info.id)!
        let name = strdup(info.displayName)!
        cStrings = [id, name]
        cInfo = .allocate(capacity: 1)
        cInfo.initialize(to: tandem_model_info(
            struct_size: UInt32(MemoryLayout<tandem_model_info>.size), id: id, display_name: name,
            kind: info.kind.cValue, caps: info.capabilities.rawValue, context_length: UInt32(clamping: info.contextLength),
            embedding_dims: UInt32(clamping: info.embeddingDimensions)))
    }

    deinit {
        cInfo.deallocate()
        cStrings.forEach { free($0) }
    }

    var info: UnsafePointer<tandem_model_info> { UnsafePointer(cInfo) }

    /// Runs a per-model call, refusing overlap unless the model allows concurrent calls.
    func exclusive<R>(_ body: () throws(BackendFailure) -> R) throws(BackendFailure) -> R {
        if model.info.capabilities.contains(.concurrentCalls) { return try body() }
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            throw BackendFailure(.concurrentRequests, "\(model.info.id) is already running a request")
        }
        defer { busy.store(false, ordering: .releasing) }
        return try body()
    }

    /// Builds the C table. The returned pointer is freed by its own `destroy`.
    static func makeCModel(_ model: any PluginModel) -> UnsafePointer<tandem_model> {
        let box = Unmanaged.passRetained(PluginModelBox(model: model))
        let table = UnsafeMutablePointer<tandem_model>.allocate(capacity: 1)
        table.initialize(to: tandem_model(
            struct_size: UInt32(MemoryLayout<tandem_model>.size),
            model_data: box.toOpaque(),
            info: { this in unbox(this).info },
            availability: { this, locale, out in
                guard let out else { return TANDEM_E_INVALID_ARGUMENT }
                let answer = unbox(this).model.availability(locale: locale.map { String(cString: $0) })
                writeAvailability(answer, to: out)
                return TANDEM_OK
            },
            generate: { this, request, stream, cancel, result, errorOut in
                let box = unbox(this)
                do throws(BackendFailure) {
                    let decoded = try BackendRequest(request)
                    let outcome = try box.exclusive { () throws(BackendFailure) in
                        try box.model.generate(decoded, events: PluginEventSink(stream), cancellation: PluginCancellation(cancel))
                    }
                    outcome.write(to: result)
                    return TANDEM_OK
                } catch {
                    let finish: FinishReason = error.status == .cancelled ? .cancelled : .error
                    BackendResult(finish: finish, modelVersion: "", usage: Usage()).write(to: result)
                    error.write(to: errorOut)
                    return error.status.rawValue
                }
            },
            embed: { this, inputs, count, vectors, capacity, required, dims, cancel, errorOut in
                let box = unbox(this)
                do throws(BackendFailure) {
                    guard let required, let dims else { throw BackendFailure(.invalidArgument, "required and dims must not be NULL") }
                    let width = box.model.info.embeddingDimensions
                    dims.pointee = UInt32(clamping: width)
                    required.pointee = count * width
                    guard capacity >= count * width, count == 0 || vectors != nil else {
                        throw BackendFailure(.bufferTooSmall, "need \(count * width) floats, capacity is \(capacity)")
                    }
                    guard count == 0 || inputs != nil else { throw BackendFailure(.invalidArgument, "inputs is NULL with count \(count)") }
                    var texts: [String] = []
                    for index in 0..<count {
                        guard let text = String(validating: inputs![index]) else {
                            throw BackendFailure(.invalidArgument, "inputs[\(index)] is not valid UTF-8")
                        }
                        texts.append(text)
                    }
                    let rows = try box.exclusive { () throws(BackendFailure) in
                        try box.model.embed(texts, cancellation: PluginCancellation(cancel))
                    }
                    for (row, vector) in rows.enumerated() {
                        guard vector.count == width else {
                            throw BackendFailure(.unknown, "embedding \(row) has \(vector.count) dimensions, expected \(width)")
                        }
                        vector.withUnsafeBufferPointer { vectors!.advanced(by: row * width).update(from: $0.baseAddress!, count: width) }
                    }
                    return TANDEM_OK
                } catch {
                    error.write(to: errorOut)
                    return error.status.rawValue
                }
            },
            count_tokens: { this, request, tokens, errorOut in
                let box = unbox(this)
                do throws(BackendFailure) {
                    guard let tokens else { throw BackendFailure(.invalidArgument, "tokens must not be NULL") }
                    let decoded = try BackendRequest(request)
                    tokens.pointee = UInt32(clamping: try box.exclusive { () throws(BackendFailure) in try box.model.countTokens(decoded) })
                    return TANDEM_OK
                } catch {
                    error.write(to: errorOut)
                    return error.status.rawValue
                }
            },
            get_extension: { this, id in
                guard let id else { return nil }
                let model = unbox(this).model
                switch String(cString: id) {
                case TANDEM_EXT_TOKEN_EMBEDDINGS where model.offersTokenEmbeddings: return UnsafeRawPointer(tokenEmbeddingsTable)
                case TANDEM_EXT_LOG_LIKELIHOOD where model.offersLogLikelihood: return UnsafeRawPointer(logLikelihoodTable)
                default: return nil
                }
            },
            destroy: { this in
                guard let this else { return }
                Unmanaged<PluginModelBox>.fromOpaque(this.pointee.model_data).release()
                UnsafeMutablePointer(mutating: this).deallocate()
            }))
        if !model.info.capabilities.contains(.embeddings) { table.pointee.embed = nil }
        if !model.info.capabilities.contains(.tokenCounting) { table.pointee.count_tokens = nil }
        return UnsafePointer(table)
    }
}

/// The `tandem.token_embeddings/1` table, shared by every model that offers it (its function
/// receives the model); never freed, so it outlives every model.
nonisolated(unsafe) private let tokenEmbeddingsTable: UnsafeMutablePointer<tandem_token_embeddings_ext> = {
    let table = UnsafeMutablePointer<tandem_token_embeddings_ext>.allocate(capacity: 1)
    table.initialize(to: tandem_token_embeddings_ext(
        struct_size: UInt32(MemoryLayout<tandem_token_embeddings_ext>.size),
        token_embeddings: { this, text, ids, states, capacity, required, dims, cancel, errorOut in
            let box = unbox(this)
            do throws(BackendFailure) {
                guard let required, let dims else { throw BackendFailure(.invalidArgument, "required and dims must not be NULL") }
                guard let decoded = String(validating: text) else { throw BackendFailure(.invalidArgument, "text is not valid UTF-8") }
                let width = box.model.info.embeddingDimensions
                dims.pointee = UInt32(clamping: width)
                let count = try box.exclusive { () throws(BackendFailure) in try box.model.tokenEmbeddingCount(of: decoded) }
                required.pointee = count
                guard capacity >= count, count == 0 || (ids != nil && states != nil) else {
                    throw BackendFailure(.bufferTooSmall, "need \(count) tokens, capacity is \(capacity)")
                }
                let answer = try box.exclusive { () throws(BackendFailure) in
                    try box.model.tokenEmbeddings(of: decoded, cancellation: PluginCancellation(cancel))
                }
                guard answer.ids.count == count else {
                    throw BackendFailure(.unknown, "\(answer.ids.count) token states, \(count) tokens counted")
                }
                if let row = answer.states.firstIndex(where: { $0.count != width }) {
                    throw BackendFailure(.unknown, "token state \(row) has \(answer.states[row].count) dimensions, expected \(width)")
                }
                for (row, state) in answer.states.enumerated() {
                    ids![row] = answer.ids[row]
                    state.withUnsafeBufferPointer { states!.advanced(by: row * width).update(from: $0.baseAddress!, count: width) }
                }
                return TANDEM_OK
            } catch {
                error.write(to: errorOut)
                return error.status.rawValue
            }
        }))
    return table
}()

private func unbox(_ this: UnsafePointer<tandem_model>?) -> PluginModelBox {
    Unmanaged<PluginModelBox>.fromOpaque(this!.pointee.model_data).takeUnretainedValue()
}

private func writeAvailability(_ answer: Availability, to out: UnsafeMutablePointer<tandem_availability>) {
    func has(_ field: PartialKeyPath<tandem_availability>) -> Bool {
        structHasField(UnsafePointer(out), structSize: out.pointee.struct_size, field)
    }
    switch answer {
    case .available:
        if has(\.reason) { out.pointee.reason = TANDEM_REASON_NONE }
        if has(\.detail_capacity) { writeCString("", into: out.pointee.detail, capacity: out.pointee.detail_capacity) }
        if has(\.progress) { out.pointee.progress = -1 }
    case .unavailable(let reason, let detail, let progress):
        if has(\.reason) { out.pointee.reason = reason.rawValue }
        if has(\.detail_capacity) { writeCString(detail, into: out.pointee.detail, capacity: out.pointee.detail_capacity) }
        if has(\.progress) { out.pointee.progress = progress ?? -1 }
    }
}

/// The `tandem.log_likelihood/1` table, shared by every model that offers it (its function
/// receives the model); never freed, so it outlives every model.
nonisolated(unsafe) private let logLikelihoodTable: UnsafeMutablePointer<tandem_log_likelihood_ext> = {
    let table = UnsafeMutablePointer<tandem_log_likelihood_ext>.allocate(capacity: 1)
    table.initialize(to: tandem_log_likelihood_ext(
        struct_size: UInt32(MemoryLayout<tandem_log_likelihood_ext>.size),
        log_likelihood: { this, context, continuation, value, tokens, cancel, errorOut in
            let box = unbox(this)
            do throws(BackendFailure) {
                guard let value, let tokens else { throw BackendFailure(.invalidArgument, "log_likelihood and tokens must not be NULL") }
                guard let context = String(validating: context) else { throw BackendFailure(.invalidArgument, "context is not valid UTF-8") }
                guard let continuation = String(validating: continuation) else {
                    throw BackendFailure(.invalidArgument, "continuation is not valid UTF-8")
                }
                guard !continuation.isEmpty else { throw BackendFailure(.invalidArgument, "the continuation is empty") }
                let answer = try box.exclusive { () throws(BackendFailure) in
                    try box.model.logLikelihood(of: continuation, after: context, cancellation: PluginCancellation(cancel))
                }
                value.pointee = answer.value
                tokens.pointee = UInt32(clamping: answer.tokens)
                return TANDEM_OK
            } catch {
                error.write(to: errorOut)
                return error.status.rawValue
            }
        }))
    return table
}()
