import Testing
@testable import Tandem

/// Routing rules checked through the real loader with `tandem.fake` on both sides.
@Suite struct PluginRoutingTests {
    let factory = ModelFactory.fakePlugin

    @Test func wholeConversationReachesTheSecondaryOnFallback() async throws {
        // The local side fails before its first token on every request, so the cloud serves.
        let local = try factory.make("local", ["kind": "local", "fail_at_token": "0", "error": "decoding"])
        let cloud = try factory.make("cloud", ["kind": "cloud", "reply": "cloud answer here"])
        let session = LanguageModelSession(
            model: HybridModel(mode: .preferLocal, local: local, cloud: cloud), instructions: "Answer in one line.")
        let first = try await session.respond(to: "first question")
        #expect(first.servedBy == "cloud")
        #expect(first.usage.promptTokens == 4 + 2)
        let second = try await session.respond(to: "and a second question")
        #expect(second.servedBy == "cloud")
        #expect(second.fallback.reason?.name == "decoding")
        // The fake counts the words of every message it received: instructions (4), the first
        // exchange (2 + 3) and the new prompt (4). Only the last message would give 4.
        #expect(second.usage.promptTokens == 4 + 2 + 3 + 4)
        #expect(session.transcript.messages.count == 5)
    }

    @Test func promptLongerThanThePrimaryContextGoesToTheSecondary() async throws {
        let local = try factory.make("local", ["kind": "local", "context_length": "5"])
        let cloud = try factory.make("cloud", ["kind": "cloud"])
        let model = HybridModel(mode: .preferLocal, local: local, cloud: cloud)
        let short = try await LanguageModelSession(model: model).respond(to: "two words")
        #expect(short.servedBy == "local")
        let long = try await LanguageModelSession(model: model).respond(to: "one two three four five six seven")
        #expect(long.servedBy == "cloud")
        #expect(long.fallback.primaryTried == false)
        #expect(long.fallback.reason?.name == "unsupportedRequest")
    }

    @Test func unsupportedLocaleOfThePrimaryFallsBack() async throws {
        let local = try factory.make("local", ["kind": "local", "locales": "en, fr"])
        let cloud = try factory.make("cloud", ["kind": "cloud"])
        let model = HybridModel(mode: .preferLocal, local: local, cloud: cloud)
        #expect(try await LanguageModelSession(model: model, locale: "fr").respond(to: "bonjour").servedBy == "local")
        let german = try await LanguageModelSession(model: model, locale: "de").respond(to: "hallo")
        #expect(german.servedBy == "cloud")
        #expect(german.fallback.reason?.name == "unsupportedLocale")
        #expect(!local.availability(for: "de").isAvailable && local.isAvailable)
    }

    @Test func taskCancellationReachesAHangingPlugin() async throws {
        let local = try factory.make("local", ["kind": "local", "hang": "true"])
        let cloud = try factory.make("cloud", ["kind": "cloud"])
        let session = LanguageModelSession(model: HybridModel(mode: .preferLocal, local: local, cloud: cloud))
        let task = Task { try await session.respond(to: "wait forever") }
        try await Task.sleep(for: .milliseconds(50))
        let start = ContinuousClock.now
        task.cancel()
        let error = await #expect(throws: TandemError.self) { try await task.value }
        #expect(error?.code == .cancelled)
        // The plugin hangs forever, so returning at all proves the cancellation reached it; the
        // bound is loose because tests share two cores (the ABI conformance suite times 100 ms).
        #expect(ContinuousClock.now - start < .seconds(60), "the plugin noticed the cancellation")
    }

    @Test func invalidOptionsFailBeforeAnyPluginIsCalled() async throws {
        // Both sides hang until cancelled: reaching either plugin would never return.
        let local = try factory.make("local", ["kind": "local", "hang": "true"])
        let cloud = try factory.make("cloud", ["kind": "cloud", "hang": "true"])
        let session = LanguageModelSession(model: HybridModel(mode: .preferLocal, local: local, cloud: cloud))
        let error = await #expect(throws: TandemError.self) {
            try await session.respond(to: "hi", options: .cloud(GenerationConfig(maxOutputTokens: 0)))
        }
        #expect(error?.code == .invalidOptions)
        #expect(error?.message == "cloud options: max tokens must be >= 1, got 0")
        #expect(!session.isResponding)
    }
}
