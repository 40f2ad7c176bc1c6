import CTandemABI
import Tandem
import Testing

extension ConformanceSuite {
    /// Opening, availability, embeddings and token counts.
    @Suite struct Model {
        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func anUnknownSettingIsRefusedByName(_ id: String) throws {
            var settings = try ConformanceEnvironment.settings(for: id)
            settings["conformance_no_such_key"] = "1"
            #expect {
                _ = try ConformanceEnvironment.plugin(id).openModel(backendID: "conformance", settings: settings)
            } throws: { error in
                let failure = error as? BackendFailure
                return failure?.status == .invalidArgument && failure?.message.contains("conformance_no_such_key") == true
            }
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func openModelRefusesANullOutPointer(_ id: String) throws {
            let plugin = try ConformanceEnvironment.plugin(id)
            let (status, failure) = BackendFailure.capture { error in plugin.table.pointee.open_model!(nil, 0, nil, error) }
            #expect(status == TANDEM_E_INVALID_ARGUMENT)
            #expect(!failure.message.isEmpty)
        }

        /// Extensions are reserved (tandem_abi.h, "Extensions"): an id the plugin does not know
        /// gets NULL, from the plugin's table and from a model's, whatever the id looks like.
        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func anUnknownExtensionIdGetsNull(_ id: String) throws {
            let plugin = try ConformanceEnvironment.plugin(id)
            let backend = try ConformanceEnvironment.open(id)
            for unknown in ["tandem.conformance-no-such-extension/1", "org.example.nothing/99", ""] {
                if let lookup = plugin.table.pointee.get_extension {
                    #expect(lookup(unknown) == nil, "plugin get_extension(\"\(unknown)\")")
                }
                if let lookup = backend.model.pointee.get_extension {
                    #expect(lookup(backend.model, unknown) == nil, "model get_extension(\"\(unknown)\")")
                }
            }
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs, [nil, "en", "de-CH", "zz-Invalid"] as [String?])
        func availabilityAnswersWithAndWithoutALocale(_ id: String, locale: String?) throws {
            let backend = try ConformanceEnvironment.open(id)
            for capacity in [0, 1, 256] {
                var detail = [CChar](repeating: 0x55, count: capacity + 8)
                var out = tandem_availability(struct_size: UInt32(MemoryLayout<tandem_availability>.size), reason: -1, detail: nil, detail_capacity: capacity, progress: 0)
                let status = detail.withUnsafeMutableBufferPointer { buffer in
                    out.detail = capacity > 0 ? buffer.baseAddress : nil
                    return locale.withCStringOrNil { backend.model.pointee.availability!(backend.model, $0, &out) }
                }
                #expect(status == TANDEM_OK)
                #expect((0...7).contains(out.reason))
                #expect(out.progress < 0 || (0...1).contains(out.progress))
                if capacity > 0 { #expect(detail[..<capacity].contains(0), "detail is not NUL-terminated") }
                #expect(detail[capacity...].allSatisfy { $0 == 0x55 })
            }
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func embeddingsUseTheTwoCallIdiom(_ id: String) throws {
            // Computing vectors needs a usable model (the cloud needs a reachable, configured server).
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            guard let embed = backend.model.pointee.embed else { return }
            let dims = backend.info.embeddingDimensions
            let texts = ["the quick brown fox", "", "the quick brown fox"]
            withCStrArray(texts) { inputs, count in
                var required = 0
                var reported: UInt32 = 0
                // Zero capacity and no buffer: the size, nothing written.
                #expect(embed(backend.model, inputs, count, nil, 0, &required, &reported, nil, nil) == TANDEM_E_BUFFER_TOO_SMALL)
                #expect(required == count * dims)
                #expect(Int(reported) == dims)
                // One float short: still too small, buffer untouched.
                var short = [Float](repeating: -9, count: required - 1)
                #expect(embed(backend.model, inputs, count, &short, short.count, &required, &reported, nil, nil) == TANDEM_E_BUFFER_TOO_SMALL)
                #expect(short.allSatisfy { $0 == -9 })
                // The right capacity, with a guard float after it.
                var vectors = [Float](repeating: -9, count: required + 1)
                let (status, failure) = BackendFailure.capture { error in
                    embed(backend.model, inputs, count, &vectors, required, &required, &reported, nil, error)
                }
                #expect(status == TANDEM_OK, "\(failure)")
                #expect(vectors[required] == -9)
                let rows = (0..<count).map { Array(vectors[($0 * dims)..<(($0 + 1) * dims)]) }
                #expect(rows.allSatisfy { $0.allSatisfy(\.isFinite) })
                #expect(rows[0] == rows[2], "the same text embeds differently")
                #expect(rows[0] != rows[1])
                // Required out-parameters must not be NULL, nor inputs when there are some.
                #expect(embed(backend.model, inputs, count, &vectors, required, nil, &reported, nil, nil) == TANDEM_E_INVALID_ARGUMENT)
                #expect(embed(backend.model, inputs, count, &vectors, required, &required, nil, nil, nil) == TANDEM_E_INVALID_ARGUMENT)
                #expect(embed(backend.model, nil, count, &vectors, required, &required, &reported, nil, nil) == TANDEM_E_INVALID_ARGUMENT)
            }
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func embeddingsHonourACancelledToken(_ id: String) throws {
            let backend = try ConformanceEnvironment.open(id)
            guard let embed = backend.model.pointee.embed else { return }
            let cancel = TestCancel()
            cancel.cancel()
            let token = cancel.cToken()
            withCStrArray(["one", "two"]) { inputs, count in
                var required = count * backend.info.embeddingDimensions
                var dims: UInt32 = 0
                var vectors = [Float](repeating: 0, count: required)
                #expect(embed(backend.model, inputs, count, &vectors, required, &required, &dims, token.pointer, nil) == TANDEM_E_CANCELLED)
            }
        }

        /// The model's table for extension `id`, nil when it offers none; the backend's `offered`
        /// (what the host read when it opened the model) must agree either way.
        static func extensionTable<Table>(_: Table.Type, _ id: String, of backend: PluginBackend, offered: Bool) -> UnsafePointer<Table>? {
            guard let raw = backend.model.pointee.get_extension?(backend.model, id) else {
                #expect(!offered, "the host says \(id) is offered, get_extension says it is not")
                return nil
            }
            #expect(offered, "get_extension offers \(id), the host says it is not offered")
            return raw.assumingMemoryBound(to: Table.self)
        }

        /// `tandem.token_embeddings/1` (tandem_abi.h), where a model offers it: only with
        /// embeddings, a table large enough for its function, embed's buffer-too-small convention
        /// (nothing written), one id and one state of the model's width per token, the same answer
        /// for the same text, and the required out-parameters and valid UTF-8 insisted on.
        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func tokenEmbeddingsFollowTheExtensionsContract(_ id: String) throws {
            guard let backend = try ConformanceEnvironment.generating(id),
                  let table = Self.extensionTable(tandem_token_embeddings_ext.self, TANDEM_EXT_TOKEN_EMBEDDINGS, of: backend,
                                                  offered: backend.offersTokenEmbeddings) else { return }
            #expect(backend.info.capabilities.contains(.embeddings), "token embeddings without the embeddings capability")
            #expect(structHasField(table, structSize: table.pointee.struct_size, \.token_embeddings))
            let function = try #require(table.pointee.token_embeddings)
            let dims = backend.info.embeddingDimensions
            withCStrArray(["the quick brown fox jumps", "", "caf\u{E9} \u{1F98A}"]) { texts, _ in
                let text = texts![0]
                var required = 0
                var reported: UInt32 = 0
                #expect(function(backend.model, text, nil, nil, 0, &required, &reported, nil, nil) == TANDEM_E_BUFFER_TOO_SMALL)
                #expect(required > 0)
                #expect(Int(reported) == dims)
                var shortIDs = [Int32](repeating: -9, count: required - 1)
                var shortStates = [Float](repeating: -9, count: (required - 1) * dims)
                #expect(function(backend.model, text, &shortIDs, &shortStates, required - 1, &required, &reported, nil, nil)
                        == TANDEM_E_BUFFER_TOO_SMALL)
                #expect(shortIDs.allSatisfy { $0 == -9 } && shortStates.allSatisfy { $0 == -9 })
                func answer(_ text: tandem_str, capacity: Int) -> (tandem_status, [Int32], [Float], Int) {
                    var ids = [Int32](repeating: -9, count: capacity + 1)
                    var states = [Float](repeating: -9, count: (capacity + 1) * dims)
                    var written = 0
                    let (status, failure) = BackendFailure.capture { error in
                        function(backend.model, text, &ids, &states, capacity, &written, &reported, nil, error)
                    }
                    #expect(status == TANDEM_OK, "\(failure)")
                    return (status, ids, states, written)
                }
                let (_, ids, states, written) = answer(text, capacity: required)
                #expect(written == required)
                #expect(ids[required] == -9 && states[required * dims] == -9, "wrote past the tokens it counted")
                #expect(ids[..<required].allSatisfy { $0 >= 0 })
                #expect(states[..<(required * dims)].allSatisfy { $0.isFinite })
                let again = answer(text, capacity: required + 4)
                #expect(again.3 == required && Array(again.1[..<required]) == Array(ids[..<required]))
                #expect(Array(again.2[..<(required * dims)]) == Array(states[..<(required * dims)]), "the same text gives other states")
                #expect(answer(texts![1], capacity: 4).3 == 0, "the empty text has tokens")
                #expect(answer(texts![2], capacity: 64).3 > 0)
                // Required out-parameters must not be NULL; the text must be UTF-8.
                #expect(function(backend.model, text, nil, nil, 0, nil, &reported, nil, nil) == TANDEM_E_INVALID_ARGUMENT)
                #expect(function(backend.model, text, nil, nil, 0, &required, nil, nil, nil) == TANDEM_E_INVALID_ARGUMENT)
                let invalid: [UInt8] = [0x66, 0xFF, 0x6F]
                invalid.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chars in
                        let bad = tandem_str(data: chars.baseAddress, size: chars.count)
                        #expect(function(backend.model, bad, nil, nil, 0, &required, &reported, nil, nil) == TANDEM_E_INVALID_ARGUMENT)
                    }
                }
            }
            // Through a tandem-plugin-host child: offered the same, the same answer.
            let isolated = try ConformanceEnvironment.backend(id, .process)
            #expect(isolated.offersTokenEmbeddings)
            let text = "the quick brown fox jumps"
            #expect(try isolated.tokenEmbeddings(text, cancellation: CancellationToken())
                    == backend.tokenEmbeddings(text, cancellation: CancellationToken()))
        }

        /// `tandem.log_likelihood/1` (tandem_abi.h), where a model offers it: a table large enough
        /// for its function; a log-probability at most 0 over at least one token; the same answer
        /// for the same texts, also after another context was scored (a kept context is no other
        /// answer); a likelier continuation scores higher; an empty continuation, text that is not
        /// UTF-8 and NULL out-parameters refused; a cancelled call ends as cancelled.
        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func logLikelihoodFollowsTheExtensionsContract(_ id: String) throws {
            guard let backend = try ConformanceEnvironment.generating(id),
                  let table = Self.extensionTable(tandem_log_likelihood_ext.self, TANDEM_EXT_LOG_LIKELIHOOD, of: backend,
                                                  offered: backend.offersLogLikelihood) else { return }
            #expect(structHasField(table, structSize: table.pointee.struct_size, \.log_likelihood))
            let function = try #require(table.pointee.log_likelihood)
            withCStrArray(["One, two, three, four,", " five, six, seven.", " purple elephant soup.", "", "Colours: red,"]) { texts, _ in
                func score(_ context: tandem_str, _ continuation: tandem_str) -> (Double, UInt32) {
                    var value = Double.nan
                    var tokens: UInt32 = 0
                    let (status, failure) = BackendFailure.capture { error in function(backend.model, context, continuation, &value, &tokens, nil, error) }
                    #expect(status == TANDEM_OK, "\(failure)")
                    return (value, tokens)
                }
                let counting = score(texts![0], texts![1])
                #expect(counting.0 <= 0 && counting.0.isFinite && counting.1 >= 1)
                let odd = score(texts![0], texts![2])
                #expect(counting.0 > odd.0, "counting on scores \(counting.0), an odd continuation \(odd.0)")
                _ = score(texts![4], texts![1])
                let again = score(texts![0], texts![1])
                #expect(again.1 == counting.1 && abs(again.0 - counting.0) <= 1e-6 * max(1, abs(counting.0)), "\(again) vs \(counting)")
                var value = 0.0
                var tokens: UInt32 = 0
                #expect(function(backend.model, texts![0], texts![3], &value, &tokens, nil, nil) == TANDEM_E_INVALID_ARGUMENT)
                #expect(function(backend.model, texts![0], texts![1], nil, &tokens, nil, nil) == TANDEM_E_INVALID_ARGUMENT)
                #expect(function(backend.model, texts![0], texts![1], &value, nil, nil, nil) == TANDEM_E_INVALID_ARGUMENT)
                let invalid: [UInt8] = [0x66, 0xFF, 0x6F]
                invalid.withUnsafeBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chars in
                        let bad = tandem_str(data: chars.baseAddress, size: chars.count)
                        #expect(function(backend.model, texts![0], bad, &value, &tokens, nil, nil) == TANDEM_E_INVALID_ARGUMENT)
                        #expect(function(backend.model, bad, texts![1], &value, &tokens, nil, nil) == TANDEM_E_INVALID_ARGUMENT)
                    }
                }
                let cancel = TestCancel()
                cancel.cancel()
                let token = cancel.cToken()
                #expect(function(backend.model, texts![2], texts![1], &value, &tokens, token.pointer, nil) == TANDEM_E_CANCELLED)
            }
            // Through a tandem-plugin-host child: offered the same, the same answer.
            let isolated = try ConformanceEnvironment.backend(id, .process)
            #expect(isolated.offersLogLikelihood)
            #expect(try isolated.logLikelihood(of: " five, six.", after: "One, two, three, four,", cancellation: CancellationToken())
                    == backend.logLikelihood(of: " five, six.", after: "One, two, three, four,", cancellation: CancellationToken()))
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs)
        func tokenCountsGrowWithThePrompt(_ id: String) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            guard backend.info.capabilities.contains(.tokenCounting) else { return }
            let short = try backend.countTokens(BackendRequest(messages: [.user("one two")]))
            let long = try backend.countTokens(conformancePrompt)
            #expect(short > 0)
            #expect(long > short)
            let count = try #require(backend.model.pointee.count_tokens)
            let status = conformancePrompt.withCRequest { count(backend.model, $0, nil, nil) }
            #expect(status == TANDEM_E_INVALID_ARGUMENT)
            var tokens: UInt32 = 0
            #expect(count(backend.model, nil, &tokens, nil) == TANDEM_E_INVALID_ARGUMENT)
        }
    }
}

extension Optional<String> {
    func withCStringOrNil<R>(_ body: (UnsafePointer<CChar>?) -> R) -> R {
        switch self {
        case .some(let text): text.withCString { body($0) }
        case .none: body(nil)
        }
    }
}
