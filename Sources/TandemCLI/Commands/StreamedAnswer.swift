import Tandem

/// Reads a session's text stream to its end, handing each new piece of text on as it arrives.
enum StreamedAnswer {
    /// The finished response (the stream's last snapshot); `onPiece` gets the text each
    /// snapshot added.
    static func collect(
        _ stream: AsyncThrowingStream<ResponseSnapshot, any Error>, onPiece: (String) -> Void
    ) async throws -> Response {
        var delivered = ""
        for try await snapshot in stream {
            if let response = snapshot.response { return response }
            onPiece(String(snapshot.content.dropFirst(delivered.count)))
            delivered = snapshot.content
        }
        throw TandemError(.cancelled, "the stream ended before the answer was complete")
    }
}
