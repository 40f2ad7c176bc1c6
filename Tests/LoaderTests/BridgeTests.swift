import CTandemABI
import Tandem
import Testing

/// TandemBridge: the Swift values of the ABI, converted both ways (host encodes, plugins decode).
@Suite struct BridgeTests {
    static let fullRequest = BackendRequest(
        messages: [
            .system("Be brief."),
            .user("Wetter in Zürich? 🌦"),
            .assistant("", toolCalls: [
                ToolCall(id: "c1", name: "weather", argumentsJSON: #"{"city":"Zürich"}"#, signature: "opaque"),
                ToolCall(id: "c2", name: "time", argumentsJSON: "{}"),
            ]),
            .toolOutput("sunny", callId: "c1", toolName: "weather"),
        ],
        tools: [ToolDeclaration(name: "weather", description: "Forecast", parametersSchema: #"{"type":"object"}"#)],
        options: BackendOptions(
            sampling: .topP, temperature: 0.7, topP: 0.9, topK: 40, seed: 7, maxTokens: 128, stopSequences: ["\n\n", "END"],
            thinkingLevel: .low, thinkingBudget: -1, responseSchema: #"{"type":"string"}"#, extras: ["llama.threads": "2", "cloud.region": "eu"]),
        locale: "de-CH")

    @Test func aRequestSurvivesTheRoundTripThroughC() throws {
        let decoded = try Self.fullRequest.withCRequest { try BackendRequest($0) }
        #expect(decoded == Self.fullRequest)
    }

    @Test func unsetOptionsStayUnset() throws {
        let request = BackendRequest(messages: [.user("hi")])
        let decoded = try request.withCRequest { try BackendRequest($0) }
        #expect(decoded.options == BackendOptions())
        #expect(decoded.locale == nil)
    }

    @Test func invalidRequestsAreRefusedNamingTheField() {
        #expect(throws: BackendFailure(.invalidArgument, "request has no messages")) {
            try BackendRequest(messages: []).withCRequest { try BackendRequest($0) }
        }
        #expect(throws: BackendFailure(.invalidArgument, "top-p must be in (0, 1], got 1.5")) {
            try BackendRequest(messages: [.user("x")], options: BackendOptions(topP: 1.5)).withCRequest { try BackendRequest($0) }
        }
        var bytes: [UInt8] = [0x66, 0xFF, 0x6F]
        let failure = bytes.withUnsafeMutableBufferPointer { buffer -> BackendFailure? in
            var message = tandem_message()
            message.struct_size = UInt32(MemoryLayout<tandem_message>.size)
            message.role = TANDEM_ROLE_USER
            message.content = tandem_str(data: UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self), size: 3)
            return withUnsafePointer(to: message) { messages in
                var request = tandem_request()
                request.struct_size = UInt32(MemoryLayout<tandem_request>.size)
                request.messages = messages
                request.message_count = 1
                return decodingFailure(&request)
            }
        }
        #expect(failure == BackendFailure(.invalidArgument, "messages[0].content is not valid UTF-8 (or NULL with a size)"))
    }

    @Test(arguments: [
        BackendEvent.text("Grüezi 👋"), .toolCall(ToolCall(id: "1", name: "f", argumentsJSON: #"{"a":1}"#, signature: "s")),
        .usage(Usage(promptTokens: 3, outputTokens: 5, thinkingTokens: 2)),
    ])
    func eventsSurviveTheRoundTripThroughC(_ event: BackendEvent) throws {
        #expect(try event.withCEvent { try BackendEvent($0) } == event)
    }

    @Test func failuresAreWrittenWithinTheCallersStructAndReadBack() {
        var failure = BackendFailure(.rateLimited, "slow down, Zürich")
        failure.httpStatus = 429
        failure.retryAfterMilliseconds = 1500
        let (status, read) = BackendFailure.capture { error in
            failure.write(to: error)
            return failure.status.rawValue
        }
        #expect(status == TANDEM_E_RATE_LIMITED)
        #expect(read == failure)
        // A short buffer keeps whole characters: "slow down, Z" + "ü" would not fit in 14 bytes.
        let (_, short) = BackendFailure.capture(capacity: 14) { error in
            failure.write(to: error)
            return failure.status.rawValue
        }
        #expect(short.message == "slow down, Z")
    }

    @Test func writeCStringTruncatesOnACharacterBoundary() {
        var buffer = [CChar](repeating: 0x55, count: 8)
        writeCString("äöü", into: &buffer, capacity: 4)
        #expect(Array(buffer[0..<3]) == [CChar(bitPattern: 0xC3), CChar(bitPattern: 0xA4), 0])
        #expect(Array(buffer[3...]).allSatisfy { $0 == 0x55 })
        writeCString("anything", into: &buffer, capacity: 1)
        #expect(buffer[0] == 0)
    }

    @Test func statusAndReasonNamesRoundTrip() {
        for status in BackendStatus.known where status != .unknown {
            #expect(BackendStatus(name: status.name) == status)
        }
        for reason in AvailabilityReason.all { #expect(AvailabilityReason(name: reason.name) == reason) }
        #expect(BackendStatus(name: "noSuchCode") == nil)
        #expect(BackendStatus(rawValue: -999).name == "unknown")
    }

    @Test func arraysOfSizedStructsMustShareOneStride() {
        var messages = [tandem_message(), tandem_message()]
        messages[0].struct_size = UInt32(MemoryLayout<tandem_message>.size)
        messages[1].struct_size = UInt32(MemoryLayout<tandem_message>.size) - 8
        let failure = messages.withUnsafeBufferPointer { buffer -> BackendFailure? in
            var request = tandem_request()
            request.struct_size = UInt32(MemoryLayout<tandem_request>.size)
            request.messages = buffer.baseAddress
            request.message_count = 2
            return decodingFailure(&request)
        }
        #expect(failure?.message.contains("messages[1].struct_size") == true)
    }
}

/// What decoding a C request throws, or nil when it decodes.
private func decodingFailure(_ request: UnsafePointer<tandem_request>) -> BackendFailure? {
    do throws(BackendFailure) {
        _ = try BackendRequest(request)
        return nil
    } catch {
        return error
    }
}
