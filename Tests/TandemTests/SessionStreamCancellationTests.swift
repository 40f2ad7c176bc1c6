import Testing
@testable import Tandem

/// Stopping a streamed answer with the caller's token: the stream ends only once the session
/// is free, so a conversation can go on at once (what `tandem chat` does on Ctrl-C).
@Suite struct SessionStreamCancellationTests {
    let factory = ModelFactory.fakePlugin

    @Test func cancellingTheTokenEndsTheStreamWithTheSessionFree() async throws {
        let local = try factory.make("local", ["kind": "local", "reply": "one two three four five six", "token_delay_ms": "300"])
        let session = LanguageModelSession(model: HybridModel(primary: local))
        let token = CancellationToken()
        var pieces = 0
        let error = await #expect(throws: TandemError.self) {
            for try await snapshot in session.streamResponse(to: "count for me", cancellation: token) {
                #expect(snapshot.response == nil, "the answer was cancelled before its end")
                pieces += 1
                token.cancel()
            }
        }
        #expect(error?.code == .cancelled)
        // Pieces may queue up before the loop first runs (two busy cores), never all six.
        #expect((1..<6).contains(pieces))
        // Free the moment the stream ended. A dropped stream ends at once, before the plugin
        // thread has noticed the cancellation and released the session.
        #expect(!session.isResponding)
        #expect(session.transcript.entries.isEmpty, "a cancelled turn leaves no trace")
        let next = try await session.respond(to: "again")
        #expect(next.content == "one two three four five six")
        #expect(next.usage.promptTokens == 1, "only the new prompt: the cancelled turn was not kept")
    }
}
