import Dispatch
import Synchronization
import Tandem
import Testing

/// Every setting key of the fake (Plugins/Fake/README.md), through the real loader.
@Suite struct FakeScriptTests {
    @Test func withoutSettingsItEchoesTheLastUserMessageWordByWord() throws {
        let fake = try ShippedPlugins.fake()
        let request = BackendRequest(messages: [.user("first question"), .assistant("answer"), .user("Hello  big world ")])
        let run = Generation(fake, request)
        #expect(run.texts == ["Hello", "  big", " world "])
        #expect(run.events.last == .usage(Usage(promptTokens: 6, outputTokens: 3)))
        #expect(run.finished == BackendResult(finish: .stop, modelVersion: "tandem-fake-1", usage: Usage(promptTokens: 6, outputTokens: 3)))
        #expect(fake.info.kind == .local)
        #expect(fake.info.id == "fake-local")
    }

    @Test func replyModelVersionAndKindAreScripted() throws {
        let fake = try ShippedPlugins.fake(["reply": "Bonjour tout le monde", "model_version": "gemini-2.5-flash-001", "kind": "cloud"])
        let run = Generation(fake, .user("anything"))
        #expect(run.text == "Bonjour tout le monde")
        #expect(run.finished?.modelVersion == "gemini-2.5-flash-001")
        #expect(fake.info.kind == .cloud)
    }

    @Test(arguments: AvailabilityReason.all)
    func availabilityIsScriptedAndGenerationThenFails(_ reason: AvailabilityReason) throws {
        let fake = try ShippedPlugins.fake(["availability": reason.name, "availability_detail": "scripted detail", "availability_progress": "0.25"])
        #expect(fake.availability(locale: nil) == .unavailable(reason, detail: "scripted detail", progress: 0.25))
        #expect(Generation(fake, .user("hi")).failure?.status == .unavailable)
    }

    @Test func localesLimitAvailabilityByLanguage() throws {
        let fake = try ShippedPlugins.fake(["locales": "en, de"])
        #expect(fake.availability(locale: "de-CH") == .available)
        #expect(fake.availability(locale: nil) == .available)
        guard case .unavailable(.unsupportedLocale, _, _) = fake.availability(locale: "fr") else {
            Issue.record("fr should be unsupported")
            return
        }
        var request = BackendRequest.user("salut")
        request.locale = "fr"
        #expect(Generation(fake, request).failure?.status == .unavailable)
    }

    static let errorClasses = ["offline", "rateLimited", "serverError", "guardrail", "tls", "decoding"]

    @Test(arguments: errorClasses)
    func failingBeforeTheFirstTokenDeliversNoText(_ error: String) throws {
        let fake = try ShippedPlugins.fake(["fail_at_token": "0", "error": error])
        let run = Generation(fake, .user("one two three four five"))
        #expect(run.events.isEmpty)
        #expect(run.failure?.status == BackendStatus(name: error))
    }

    @Test(arguments: errorClasses)
    func failingAfterTheThirdTokenDeliversThreeTokensFirst(_ error: String) throws {
        let fake = try ShippedPlugins.fake(["fail_at_token": "3", "error": error])
        let run = Generation(fake, .user("one two three four five"))
        #expect(run.texts == ["one", " two", " three"])
        #expect(run.failure?.status == BackendStatus(name: error))
        #expect(run.failure?.message.contains("after 3 tokens") == true)
    }

    @Test func anErrorAloneFailsAtOnceAndFailAtTokenAloneIsRefused() throws {
        #expect(Generation(try ShippedPlugins.fake(["error": "offline"]), .user("hi")).failure?.status == .offline)
        #expect(throws: BackendFailure.self) { try ShippedPlugins.fake(["fail_at_token": "2"]) }
        #expect {
            try ShippedPlugins.fake(["fail_at_token": "2", "error": "exploded"])
        } throws: { ($0 as? BackendFailure)?.message.contains("exploded is not an ABI error code name") == true }
    }

    @Test func hangBlocksUntilCancelledFromAnotherThread() throws {
        let fake = try ShippedPlugins.fake(["hang": "true"])
        let token = CancellationToken()
        let clock = ContinuousClock()
        let cancelledAt = Mutex<ContinuousClock.Instant?>(nil)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
            cancelledAt.withLock { $0 = clock.now }
            token.cancel()
        }
        let run = Generation(fake, .user("hi"), cancellation: token)
        let returned = clock.now
        #expect(run.failure?.status == .cancelled)
        let cancelled = try #require(cancelledAt.withLock { $0 })
        #expect(returned - cancelled < .milliseconds(100))
    }

    @Test func aSlowTokenIsCutShortByCancellation() throws {
        let fake = try ShippedPlugins.fake(["token_delay_ms": "5000"])
        let token = CancellationToken()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) { token.cancel() }
        let clock = ContinuousClock()
        let start = clock.now
        let run = Generation(fake, .user("one two"), cancellation: token)
        #expect(run.failure?.status == .cancelled)
        #expect(clock.now - start < .milliseconds(1000))
    }

    @Test func tokenDelaySpacesTheTokens() throws {
        let fake = try ShippedPlugins.fake(["token_delay_ms": "20"])
        let clock = ContinuousClock()
        let start = clock.now
        let run = Generation(fake, .user("a b c"))
        #expect(run.texts.count == 3)
        #expect(clock.now - start >= .milliseconds(60))
    }

    @Test func refusalCarriesItsExplanation() throws {
        let run = Generation(try ShippedPlugins.fake(["refusal": "I cannot help with that."]), .user("hi"))
        #expect(run.failure == BackendFailure(.refusal, "I cannot help with that."))
    }

    @Test func guidedReplyAnswersARequestWithASchema() throws {
        let fake = try ShippedPlugins.fake(["guided_reply": #"{"quote": "Be brief", "author": "#])
        let schema = BackendOptions(responseSchema: #"{"type": "object"}"#)
        #expect(Generation(fake, .user("give me a quote", options: schema)).text == #"{"quote": "Be brief", "author": "#)
        #expect(Generation(fake, .user("plain")).text == "plain")
        #expect(Generation(try ShippedPlugins.fake(), .user("x", options: schema)).failure?.status == .unsupportedGuide)
    }

    @Test func toolCallsAreScriptedUntilAToolAnswers() throws {
        let fake = try ShippedPlugins.fake([
            "tool_calls": #"[{"name": "weather", "arguments": {"city": "Zürich", "days": 2}}]"#, "reply": "Sunny.",
        ])
        let tool = ToolDeclaration(name: "weather", description: "Forecast", parametersSchema: #"{"type": "object"}"#)
        let asking = Generation(fake, BackendRequest(messages: [.user("weather?")], tools: [tool]))
        let call = ToolCall(id: "call-1", name: "weather", argumentsJSON: #"{"city":"Zürich","days":2}"#)
        #expect(asking.events.first == .toolCall(call))
        #expect(asking.finished?.finish == .toolCalls)
        let answered = Generation(fake, BackendRequest(
            messages: [.user("weather?"), .assistant("", toolCalls: [call]), .toolOutput("sun", callId: "call-1", toolName: "weather")],
            tools: [tool]))
        #expect(answered.text == "Sunny.")
        #expect(throws: BackendFailure.self) { try ShippedPlugins.fake(["tool_calls": "[{\"name\": 1}]"]) }
        let failing = try ShippedPlugins.fake(["tool_calls": #"[{"name": "weather", "arguments": {}}]"#, "error": "offline"])
        let failed = Generation(failing, BackendRequest(messages: [.user("weather?")], tools: [tool]))
        #expect(failed.events.isEmpty)
        #expect(failed.failure?.status == .offline)
    }

    @Test func maxTokensAndStopSequencesEndTheReply() throws {
        let fake = try ShippedPlugins.fake(["reply": "one two three. four five"])
        let limited = Generation(fake, .user("x", options: BackendOptions(maxTokens: 2)))
        #expect(limited.texts == ["one", " two"])
        #expect(limited.finished?.finish == .maxTokens)
        let stopped = Generation(fake, .user("x", options: BackendOptions(stopSequences: ["four", "."])))
        #expect(stopped.text == "one two three")
        #expect(stopped.finished?.finish == .stopSequence)
        let callerStop = Generation(fake, .user("x"), stopAfter: 1)
        #expect(callerStop.texts == ["one"])
        #expect(callerStop.finished?.finish == .callback)
    }

    @Test func embeddingsAreNormalisedHashedTrigrams() throws {
        let fake = try ShippedPlugins.fake(["embedding_dims": "128"])
        let vectors = try fake.embed(["The cat sat on the mat", "the cat sat on a mat", "Quarterly revenue grew 4%"], cancellation: CancellationToken())
        #expect(vectors.allSatisfy { $0.count == 128 })
        for vector in vectors { #expect(abs(vector.reduce(0) { $0 + $1 * $1 } - 1) < 1e-5) }
        func cosine(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }
        #expect(cosine(vectors[0], vectors[1]) > 0.7)
        #expect(cosine(vectors[0], vectors[2]) < 0.3)
        #expect(try fake.embed(["The cat sat on the mat"], cancellation: CancellationToken()) == [vectors[0]])
        let none = try ShippedPlugins.fake(["embedding_dims": "0"])
        #expect(!none.info.capabilities.contains(.embeddings))
        #expect(throws: BackendFailure.self) { try none.embed(["x"], cancellation: CancellationToken()) }
    }

    @Test func aPromptBeyondTheContextLengthIsRefusedWithItsFigures() throws {
        let fake = try ShippedPlugins.fake(["context_length": "5"])
        let failure = Generation(fake, .user("one two three four", options: BackendOptions(maxTokens: 2))).failure
        #expect(failure?.status == .exceededContextWindowSize)
        #expect(failure?.contextLimit == 5)
        #expect(failure?.contextRequested == 6)
    }

    @Test func concurrentDeclaresConcurrentCalls() throws {
        #expect(try ShippedPlugins.fake(["concurrent": "true"]).info.capabilities.contains(.concurrentCalls))
        #expect(try !ShippedPlugins.fake().info.capabilities.contains(.concurrentCalls))
    }

    @Test func badSettingsAreRefusedByName() throws {
        let cases: [([String: String], String)] = [
            (["replly": "typo"], "unknown setting \"replly\""),
            (["kind": "remote"], "setting kind: expected one of local, cloud, test, got remote"),
            (["availability": "sleepy"], "setting availability: expected available or one of"),
            (["token_delay_ms": "-1"], "setting token_delay_ms: expected an integer in 0...60000"),
            (["hang": "yes"], "setting hang: expected true or false"),
            (["availability_progress": "2"], "setting availability_progress: expected a number in 0...1"),
        ]
        for (settings, message) in cases {
            #expect {
                try ShippedPlugins.fake(settings)
            } throws: { error in
                let failure = error as? BackendFailure
                return failure?.status == .invalidArgument && failure?.message.contains(message) == true
            }
        }
    }

    @Test func thinkingIsRefusedAsUnsupported() throws {
        let run = Generation(try ShippedPlugins.fake(), .user("x", options: BackendOptions(thinkingLevel: .high)))
        #expect(run.failure?.status == .unsupportedOption)
    }
}
