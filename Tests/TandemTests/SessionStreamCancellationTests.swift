import Testing
@testable import Tandem

/// Stopping a streamed answer with the caller's token: the stream ends only once the session
/// is free, so a conversation can go on at once (what `tandem chat` does on Ctrl-C).
@Suite struct SessionStreamCancellationTests {
    let factory = ModelFactory.fakePlugin

    @Test func cancellingTheTokenEndsTheStreamWithTheSessionFree() async throws {
        // Three hundred pieces a second apart: however busy the machine, the answer is still under
        // way when the first piece has reached this loop and the token is cancelled (a full suite
        // on 2 cores kept this loop from running for over 30 s while the pieces were buffered).
        let words = (1...300).map { "w\($0)" }.joined(separator: " ")
        let local = try factory.make("local", ["kind": "local", "reply": words, "token_delay_ms": "1000"])
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
        #expect((1..<300).contains(pieces))
        // Free the moment the stream ended. A dropped stream ends at once, before the plugin
        // thread has noticed the cancellation and released the session.
        #expect(!session.isResponding)
        #expect(session.transcript.entries.isEmpty, "a cancelled turn leaves no trace")
        let next = try await session.respond(to: "again", options: .local(GenerationOptions(maximumResponseTokens: 1)))
        #expect(next.content == "w1")
        #expect(next.usage.promptTokens == 1, "only the new prompt: the cancelled turn was not kept")
    }
}
