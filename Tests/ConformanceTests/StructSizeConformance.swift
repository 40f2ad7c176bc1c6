import CTandemABI
import Tandem
import Testing

extension ConformanceSuite {
    /// Every struct the host writes, written smaller (an older host) and larger (a newer host):
    /// the plugin reads only what is there, writes only what is there, and still works.
    @Suite struct StructSizes {
        static let sizes: [StructSize] = [.smaller, .larger]

        @Test(arguments: ConformanceEnvironment.pluginIDs, sizes)
        func requestOfAnotherSize(_ id: String, size: StructSize) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            let stream = RecordingStream()
            // A smaller request has no options: max_tokens must then not apply.
            var request = conformancePrompt
            request.options.maxTokens = 1
            let outcome = rawGenerate(backend.model, request, layout: RequestLayout(request: size), stream: stream)
            #expect(outcome.status == TANDEM_OK, "\(outcome.errorMessage)")
            #expect(stream.problems.isEmpty, "\(stream.problems)")
            if size == .larger { #expect(stream.textEventCount <= 1) }
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs, sizes)
        func messagesOfAnotherSizeAreReadAtTheirStride(_ id: String, size: StructSize) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            let exact = RecordingStream()
            let sized = RecordingStream()
            _ = rawGenerate(backend.model, stream: exact)
            let outcome = rawGenerate(backend.model, layout: RequestLayout(message: size), stream: sized)
            #expect(outcome.status == TANDEM_OK, "\(outcome.errorMessage)")
            if backend.info.capabilities.contains(.deterministic) {
                #expect(sized.text == exact.text, "the messages were misread at stride \(size)")
            }
        }

        /// Smaller options end after max_tokens: the stop bit may be set, but its field is not there.
        @Test(arguments: ConformanceEnvironment.pluginIDs, sizes)
        func optionsOfAnotherSizeKeepTheirKnownFields(_ id: String, size: StructSize) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            var request = conformancePrompt
            request.options.maxTokens = 1
            request.options.stopSequences = ["zzz-never-appears"]
            let stream = RecordingStream()
            let outcome = rawGenerate(backend.model, request, layout: RequestLayout(options: size), stream: stream)
            #expect(outcome.status == TANDEM_OK, "\(outcome.errorMessage)")
            #expect(stream.textEventCount <= 1)
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs, sizes)
        func streamOfAnotherSize(_ id: String, size: StructSize) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            let stream = RecordingStream()
            let outcome = rawGenerate(backend.model, stream: stream, streamSize: size)
            #expect(outcome.status == TANDEM_OK, "\(outcome.errorMessage)")
            // A smaller stream ends before on_event: there is no callback to call.
            #expect(size == .smaller ? stream.events.isEmpty : stream.textEventCount > 0)
        }

        /// A smaller token ends before set_waker: the plugin must poll instead, and still stop.
        @Test(arguments: ConformanceEnvironment.pluginIDs, sizes)
        func cancelTokenOfAnotherSize(_ id: String, size: StructSize) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            let cancel = TestCancel()
            let stream = RecordingStream()
            stream.decide = { _, _ in cancel.cancel(); return TANDEM_CONTINUE }
            let outcome = rawGenerate(backend.model, stream: stream, cancel: cancel, cancelSize: size)
            #expect(outcome.status == TANDEM_E_CANCELLED)
            if size == .smaller { #expect(cancel.registrations == 0, "set_waker is beyond struct_size") }
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs, sizes)
        func resultOfAnotherSizeIsWrittenOnlyWithinIt(_ id: String, size: StructSize) throws {
            guard let backend = try ConformanceEnvironment.generating(id) else { return }
            let outcome = rawGenerate(backend.model, resultSize: size)
            #expect(outcome.status == TANDEM_OK)
            #expect(outcome.resultGuardIntact)
            #expect(outcome.versionGuardIntact)
            #expect([TANDEM_FINISH_STOP, TANDEM_FINISH_MAX_TOKENS, TANDEM_FINISH_STOP_SEQUENCE].contains(outcome.result?.finish ?? -1))
            if size == .larger { #expect(!outcome.modelVersion.isEmpty) }
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs, sizes)
        func errorOfAnotherSizeIsWrittenOnlyWithinIt(_ id: String, size: StructSize) throws {
            let backend = try ConformanceEnvironment.open(id)
            let outcome = rawGenerate(backend.model, BackendRequest(messages: []), errorSize: size)
            #expect(outcome.status == TANDEM_E_INVALID_ARGUMENT)
            #expect(outcome.errorGuardIntact)
            #expect(!outcome.errorMessage.isEmpty)
        }

        @Test(arguments: ConformanceEnvironment.pluginIDs, sizes)
        func availabilityOfAnotherSizeIsWrittenOnlyWithinIt(_ id: String, size: StructSize) throws {
            let backend = try ConformanceEnvironment.open(id)
            var detail = [CChar](repeating: 0x55, count: 128)
            detail[0] = 0
            let out = detail.withUnsafeMutableBufferPointer { buffer -> SizedStruct<tandem_availability> in
                let value = tandem_availability(struct_size: 0, reason: -1, detail: buffer.baseAddress, detail_capacity: 64, progress: -7)
                let out = SizedStruct(value, size: size.bytes(tandem_availability.self, smallerEndsAt: end(of: \tandem_availability.reason)))
                #expect(backend.model.pointee.availability!(backend.model, nil, out.pointer) == TANDEM_OK)
                return out
            }
            #expect(out.guardIntact)
            #expect((0...7).contains(out.value.reason))
            if size == .smaller { #expect(detail[0] == 0, "detail is beyond struct_size") }
            #expect(detail[64...].allSatisfy { $0 == 0x55 })
        }
    }
}

extension ConformanceSuite.StructSizes {
    /// A conversation with a tool round trip, for the tool and tool-call strides.
    static let toolConversation = BackendRequest(
        messages: [
            .user("What is the weather in Bern?"),
            .assistant("", toolCalls: [
                ToolCall(id: "call-1", name: "weather", argumentsJSON: #"{"city":"Bern"}"#, signature: "sig"),
                ToolCall(id: "call-2", name: "time", argumentsJSON: #"{"zone":"Europe/Zurich"}"#),
            ]),
            .toolOutput(#"{"sky":"clear"}"#, callId: "call-1", toolName: "weather"),
            .toolOutput(#"{"time":"12:00"}"#, callId: "call-2", toolName: "time"),
        ],
        tools: [
            ToolDeclaration(name: "weather", description: "Current weather", parametersSchema: #"{"type":"object"}"#),
            ToolDeclaration(name: "time", description: "Current time", parametersSchema: #"{"type":"object"}"#),
        ])

    @Test(arguments: ConformanceEnvironment.pluginIDs, [StructSize.larger])
    func toolsOfAnotherSizeAreReadAtTheirStride(_ id: String, size: StructSize) throws {
        guard let backend = try ConformanceEnvironment.generating(id), backend.info.capabilities.contains(.tools) else { return }
        let exact = RecordingStream()
        let sized = RecordingStream()
        let reference = rawGenerate(backend.model, Self.toolConversation, stream: exact)
        let outcome = rawGenerate(backend.model, Self.toolConversation, layout: RequestLayout(tool: size), stream: sized)
        #expect(outcome.status == reference.status, "\(outcome.errorMessage)")
        if backend.info.capabilities.contains(.deterministic) { #expect(sized.events == exact.events) }
    }

    @Test(arguments: ConformanceEnvironment.pluginIDs, ConformanceSuite.StructSizes.sizes)
    func toolCallsOfAnotherSizeAreReadAtTheirStride(_ id: String, size: StructSize) throws {
        guard let backend = try ConformanceEnvironment.generating(id), backend.info.capabilities.contains(.tools) else { return }
        let exact = RecordingStream()
        let sized = RecordingStream()
        let reference = rawGenerate(backend.model, Self.toolConversation, stream: exact)
        let outcome = rawGenerate(backend.model, Self.toolConversation, layout: RequestLayout(toolCall: size), stream: sized)
        #expect(outcome.status == reference.status, "\(outcome.errorMessage)")
        if backend.info.capabilities.contains(.deterministic) { #expect(sized.events == exact.events) }
    }
}
