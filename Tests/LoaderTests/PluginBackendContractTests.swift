import PluginFixtures
import CTandemABI
import Tandem
import Testing

/// A plugin that breaks one rule per mode: the host reports each break instead of trusting it.
@Suite struct PluginBackendContractTests {
    /// Compiled once per test process into a folder of its own.
    static let plugin: LoadedPlugin? = {
        guard let folder = try? PluginFolder(),
              (try? folder.compile("misbehaving.so", source: PluginFolder.packageRoot + "/Tests/LoaderTests/Fixtures/misbehaving_plugin.c", libraries: ["-pthread"])) != nil
        else { return nil }
        defer { withExtendedLifetime(folder) {} }
        return PluginLoader(directory: folder.path).load().plugins.first
    }()

    private func open(_ mode: String) throws -> PluginBackend {
        let plugin = try #require(Self.plugin)
        return try plugin.openModel(backendID: "bad", settings: ["mode": mode])
    }

    @Test(arguments: [
        ("event_after_stop", "the plugin sent an event after the host asked it to stop"),
        ("empty_text", "the plugin sent an empty text event"),
        ("invalid_utf8", "the plugin sent a malformed event: event.text is not valid UTF-8 (or NULL with a size)"),
        ("other_thread", "the plugin sent an event from another thread than the caller's"),
    ])
    func streamRuleBreaksAreDecodingFailures(_ mode: String, message: String) throws {
        let run = Generation(try open(mode), .user("x"), stopAfter: 1)
        #expect(run.failure == BackendFailure(.decoding, message))
    }

    @Test func aPositiveStatusIsUnknownAndNamed() throws {
        let run = Generation(try open("positive_status"), .user("x"))
        #expect(run.failure == BackendFailure(.unknown, "test.misbehaving: generate returned the positive status 5, which the ABI does not allow"))
    }

    @Test func anErrorWithoutAMessageStillSaysWhoFailed() throws {
        let run = Generation(try open("silent_error"), .user("x"))
        #expect(run.failure == BackendFailure(.serverError, "test.misbehaving: generate failed with serverError and no message"))
    }

    @Test func aWakerLeftRegisteredIsDroppedBeforeTheTokenFires() throws {
        let backend = try open("leave_waker")
        let token = CancellationToken()
        #expect(Generation(backend, .user("x"), cancellation: token).failure == nil)
        token.cancel()
        #expect(backend.availability(locale: nil) == .available)
        let detail = try #require(Self.detail(backend))
        #expect(detail == "wakes=0")
    }

    @Test(arguments: [
        ("open_null", "test.misbehaving: open_model returned OK without a model"),
        ("info_null", "test.misbehaving: info() returned NULL"),
        ("missing_generate", "test.misbehaving: the model table lacks generate"),
        ("embed_liar", "test.misbehaving: declares embeddings but embed is NULL or embedding_dims is 0"),
    ])
    func brokenModelsAreRefusedAtOpen(_ mode: String, message: String) throws {
        #expect(throws: BackendFailure(.initFailed, message)) { try open(mode) }
    }

    /// A too-small answer asking for more room than the model has positions is refused, not
    /// allocated (2^40 tokens of 4 floats).
    @Test func tokenStatesNeedNoMoreRoomThanTheModelsPositions() throws {
        let backend = try open("states_huge")
        #expect(backend.offersTokenEmbeddings)
        #expect(throws: BackendFailure(.decoding, "test.misbehaving: token_embeddings asked room for 1099511627776 tokens, "
                                       + "more than the model's 512 positions")) {
            try backend.tokenEmbeddings("x", cancellation: CancellationToken())
        }
    }

    /// A log-likelihood no probability can have is refused, naming what was answered; a table too
    /// small to hold its function is a broken plugin, refused when the model is opened.
    @Test(arguments: [("likelihood_positive", "1.5 over 3 tokens"), ("likelihood_nan", "nan over 3 tokens"),
                      ("likelihood_no_tokens", "-2.0 over 0 tokens")])
    func anImpossibleLogLikelihoodIsADecodingFailure(_ mode: String, answered: String) throws {
        let backend = try open(mode)
        #expect(backend.offersLogLikelihood)
        #expect(throws: BackendFailure(.decoding, "test.misbehaving: log_likelihood answered \(answered) "
                                       + "(a log-probability is finite and at most 0, over at least one token)")) {
            try backend.logLikelihood(of: "x", after: "y", cancellation: CancellationToken())
        }
        #expect(throws: BackendFailure(.invalidArgument, "the continuation to score is empty")) {
            try backend.logLikelihood(of: "", after: "y", cancellation: CancellationToken())
        }
    }

    @Test func aLogLikelihoodTableWithoutItsFunctionIsRefusedAtOpen() throws {
        #expect(throws: BackendFailure(.initFailed, "test.misbehaving: the tandem.log_likelihood/1 table (struct_size 4) has no log_likelihood function")) {
            try open("likelihood_short_table")
        }
    }

    /// The raw availability detail (the fixture reports its waker count there).
    private static func detail(_ backend: PluginBackend) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        return buffer.withUnsafeMutableBufferPointer { detail -> String? in
            var out = tandem_availability(
                struct_size: UInt32(MemoryLayout<tandem_availability>.size), reason: 0, detail: detail.baseAddress, detail_capacity: 64, progress: -1)
            guard backend.model.pointee.availability!(backend.model, nil, &out) == TANDEM_OK else { return nil }
            return String(cString: detail.baseAddress!)
        }
    }
}
