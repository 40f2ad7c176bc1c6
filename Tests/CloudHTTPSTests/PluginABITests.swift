import CTandemABI
import CloudHTTPSCore
import MockCloudServer
import Foundation
import Synchronization
import TandemBridge
import Testing

/// The real ABI path: the built libCloudHTTPS.so is dlopen-ed, its entry function called, and a
/// model driven through the C tables only, as the host's loader will.
@Suite(.serialized) struct PluginABITests {
    /// Everything the plugin logged through the host.
    static let logLines = Mutex<[String]>([])

    /// The loaded plugin: entry → table. Loaded once; a Swift plugin is never unloaded.
    nonisolated(unsafe) static let plugin: Result<(table: UnsafePointer<tandem_plugin>, id: String, entry: tandem_plugin_entry_fn), PluginLoadError> = {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let path = directory.appendingPathComponent("libCloudHTTPS.so").path
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            return .failure(PluginLoadError(reason: "dlopen \(path): \(String(cString: dlerror()))"))
        }
        guard let symbol = dlsym(handle, TANDEM_ENTRY_SYMBOL) else { return .failure(PluginLoadError(reason: "no entry symbol")) }
        let entry = unsafeBitCast(symbol, to: tandem_plugin_entry_fn.self)
        var request = tandem_load_request(
            struct_size: UInt32(MemoryLayout<tandem_load_request>.size), min_abi: tandem_abi_version(1, 0),
            max_abi: tandem_abi_version(1, 9), host: hostTable, plugin_path: nil)
        var response = tandem_load_response()
        response.struct_size = UInt32(MemoryLayout<tandem_load_response>.size)
        let (status, failure) = BackendFailure.capture { entry(&request, &response, $0) }
        guard status == TANDEM_OK, let table = response.plugin else { return .failure(PluginLoadError(reason: "entry failed: \(failure)")) }
        return .success((table, String(cString: response.plugin_id), entry))
    }()

    nonisolated(unsafe) static let hostTable: UnsafePointer<tandem_host> = {
        let host = UnsafeMutablePointer<tandem_host>.allocate(capacity: 1)
        host.initialize(to: tandem_host(
            struct_size: UInt32(MemoryLayout<tandem_host>.size), host_data: nil,
            log: { _, _, message in PluginABITests.logLines.withLock { $0.append(String(cString: message!)) } },
            get_secret: nil, config_directory: nil))
        return UnsafePointer(host)
    }()

    struct PluginLoadError: Error { var reason: String }

    /// open_model with text settings; returns the model or the failure.
    static func open(_ settings: [String: String]) throws -> Result<UnsafePointer<tandem_model>, BackendFailure> {
        let table = try plugin.get().table
        let keys = settings.keys.sorted()
        var strings: [UnsafeMutablePointer<CChar>] = []
        for key in keys {
            strings.append(strdup(key)!)
            strings.append(strdup(settings[key]!)!)
        }
        defer { strings.forEach { free($0) } }
        let pairs = stride(from: 0, to: strings.count, by: 2).map { i in
            tandem_kv(key: tandem_str(data: strings[i], size: strlen(strings[i])), value: tandem_str(data: strings[i + 1], size: strlen(strings[i + 1])))
        }
        var model: UnsafePointer<tandem_model>?
        let (status, failure) = pairs.withUnsafeBufferPointer { buffer in
            BackendFailure.capture { table.pointee.open_model(buffer.baseAddress, buffer.count, &model, $0) }
        }
        guard status == TANDEM_OK, let model else { return .failure(failure) }
        return .success(model)
    }

    /// generate through the C table.
    static func generate(_ model: UnsafePointer<tandem_model>, _ request: BackendRequest, recorder: EventRecorder = EventRecorder(), cancel: TestCancelToken = TestCancelToken()) -> (tandem_status, BackendFailure, tandem_result, String) {
        var versionBuffer = [CChar](repeating: 0, count: 128)
        var result = tandem_result()
        result.struct_size = UInt32(MemoryLayout<tandem_result>.size)
        let (status, failure) = versionBuffer.withUnsafeMutableBufferPointer { version in
            result.model_version = version.baseAddress
            result.model_version_capacity = version.count
            return request.withCRequest { cRequest in
                recorder.withStream { stream in
                    cancel.withToken { token in
                        BackendFailure.capture { model.pointee.generate(model, cRequest, stream, token, &result, $0) }
                    }
                }
            }
        }
        return (status, failure, result, versionBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    @Test func loadsWithItsIdAndRefusesAnIncompatibleHost() throws {
        let loaded = try Self.plugin.get()
        #expect(loaded.id == "tandem.cloud")
        #expect(loaded.table.pointee.open_model != nil)
        var request = tandem_load_request(
            struct_size: UInt32(MemoryLayout<tandem_load_request>.size), min_abi: tandem_abi_version(2, 0),
            max_abi: tandem_abi_version(2, 3), host: Self.hostTable, plugin_path: nil)
        var response = tandem_load_response()
        response.struct_size = UInt32(MemoryLayout<tandem_load_response>.size)
        let (status, failure) = BackendFailure.capture { loaded.entry(&request, &response, $0) }
        #expect(status == TANDEM_E_INCOMPATIBLE)
        #expect(failure.message.contains("2.0"))
    }

    @Test func openModelNamesABadSetting() throws {
        var settings = ModelFactory.settings(.gemini, token: "x")
        settings["timeout"] = "5"
        guard case .failure(let failure) = try Self.open(settings) else { Issue.record("accepted"); return }
        #expect(failure.status == .invalidArgument)
        #expect(failure.message == "unknown setting \"timeout\"")
    }

    @Test func generatesStreamsAndReportsThroughTheCTables() throws {
        let token = MockServer.token("ok")
        let model = try Self.open(ModelFactory.settings(.gemini, token: token)).get()
        defer { model.pointee.destroy(model) }
        let info = model.pointee.info(model)!
        #expect(String(cString: info.pointee.id) == "gemini-2.5-flash")
        #expect(info.pointee.kind == TANDEM_KIND_CLOUD)
        #expect(info.pointee.caps & TANDEM_CAP_STREAMING != 0 && info.pointee.caps & TANDEM_CAP_TOOLS != 0)
        #expect(info.pointee.embedding_dims == 3072)

        var detail = [CChar](repeating: 0, count: 256)
        var availability = tandem_availability()
        availability.struct_size = UInt32(MemoryLayout<tandem_availability>.size)
        detail.withUnsafeMutableBufferPointer { buffer in
            availability.detail = buffer.baseAddress
            availability.detail_capacity = buffer.count
            _ = model.pointee.availability(model, nil, &availability)
        }
        #expect(availability.reason == TANDEM_REASON_NONE)

        let recorder = EventRecorder()
        let (status, _, result, version) = Self.generate(model, .prompt("through C"), recorder: recorder)
        #expect(status == TANDEM_OK)
        #expect(recorder.text == "Echo: through C")
        #expect(result.finish == TANDEM_FINISH_STOP)
        #expect(version == "gemini-2.5-flash-001")
        #expect(result.prompt_tokens == 7 && result.output_tokens == 5)

        var tokens: UInt32 = 0
        let countStatus = BackendRequest.prompt("a b c d").withCRequest { request in
            BackendFailure.capture { model.pointee.count_tokens(model, request, &tokens, $0) }.status
        }
        #expect(countStatus == TANDEM_OK)
        #expect(tokens == 4)
    }

    @Test func embedFollowsTheTwoCallSizeIdiom() throws {
        let model = try Self.open(ModelFactory.settings(.openai, token: MockServer.token("ok"), ["embedding_dimensions": "8"])).get()
        defer { model.pointee.destroy(model) }
        let texts: [UnsafeMutablePointer<CChar>] = [strdup("first")!, strdup("second")!]
        defer { texts.forEach { free($0) } }
        let inputs = texts.map { tandem_str(data: $0, size: strlen($0)) }
        var required = 0
        var dims: UInt32 = 0
        let first = BackendFailure.capture { model.pointee.embed(model, inputs, 2, nil, 0, &required, &dims, nil, $0) }
        #expect(first.status == TANDEM_E_BUFFER_TOO_SMALL)
        #expect(required == 16 && dims == 8)
        var vectors = [Float](repeating: .nan, count: required)
        let second = BackendFailure.capture { model.pointee.embed(model, inputs, 2, &vectors, vectors.count, &required, &dims, nil, $0) }
        #expect(second.status == TANDEM_OK)
        #expect(!vectors.contains { $0.isNaN })
        #expect(model.pointee.count_tokens == nil)  // the OpenAI protocol cannot count tokens
    }

    @Test func errorsCancellationAndLogsCrossTheBoundary() throws {
        Self.logLines.withLock { $0.removeAll() }
        let limited = try Self.open(ModelFactory.settings(.gemini, token: MockServer.token("ratelimit-long"))).get()
        defer { limited.pointee.destroy(limited) }
        let (status, failure, result, _) = Self.generate(limited, .prompt("x"))
        #expect(status == TANDEM_E_RATE_LIMITED)
        #expect(failure.retryAfterMilliseconds == 120_000)
        #expect(failure.httpStatus == 429)
        #expect(result.finish == TANDEM_FINISH_ERROR)

        let flaky = try Self.open(ModelFactory.settings(.openai, token: MockServer.token("flaky"))).get()
        defer { flaky.pointee.destroy(flaky) }
        #expect(Self.generate(flaky, .prompt("x")).0 == TANDEM_OK)
        let logs = Self.logLines.withLock { $0 }
        #expect(logs.contains { $0.contains("retrying in") })
        #expect(!logs.contains { $0.contains(MockServer.apiKey) })

        let hanging = try Self.open(ModelFactory.settings(.gemini, token: MockServer.token("hang"))).get()
        defer { hanging.pointee.destroy(hanging) }
        let cancel = TestCancelToken()
        let cancelledAt = ManagedAtomicInt64()
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.3)
            cancelledAt.store(MonotonicClock.nowMilliseconds())
            cancel.cancel()
        }
        let cancelled = Self.generate(hanging, .prompt("x"), cancel: cancel)
        #expect(cancelled.0 == TANDEM_E_CANCELLED)
        #expect(cancelled.2.finish == TANDEM_FINISH_CANCELLED)
        #expect(MonotonicClock.nowMilliseconds() - cancelledAt.load() < 200)
    }
}
