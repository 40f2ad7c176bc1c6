import JSONModel
import TandemBridge

/// Reads one generation's response: every SSE event's JSON (streamed) or the whole body.
public protocol GenerationDecoder {
    /// True for an event that marks the natural end of the stream without content (`[DONE]`).
    func isEndMarker(_ event: SSEEvent) -> Bool
    /// Decodes one JSON payload into the events it completes. Throws for an error the payload
    /// reports (a block, a refusal, an error object).
    mutating func decode(_ payload: JSONValue) throws(BackendFailure) -> [BackendEvent]
    /// Called when the body ended. `endMarkerSeen` says an end marker arrived; `strayText` holds
    /// lines of the stream that were not SSE. Returns how the generation ended, or throws when
    /// the response stopped before its natural end.
    mutating func finish(endMarkerSeen: Bool, strayText: [UInt8]) throws(BackendFailure) -> GenerationOutcome
    /// What is known so far (for a generation the caller stopped early).
    var partialOutcome: GenerationOutcome { get }
}
