import TandemBridge

/// One wire protocol: how requests are written and how answers are read. A dialect is pure
/// (no I/O), so every encoder and decoder is testable on bytes alone.
public protocol CloudDialect: Sendable {
    /// The generation request; `credential` is nil when no key is sent.
    func generateRequest(_ request: BackendRequest, stream: Bool, credential: String?) throws(BackendFailure) -> HTTPRequest
    /// A fresh decoder for one attempt's response.
    func makeDecoder(streamed: Bool) -> any GenerationDecoder

    func embedRequest(_ texts: [String], credential: String?) throws(BackendFailure) -> HTTPRequest
    /// One vector per input, in input order.
    func decodeEmbeddings(_ body: JSONValue, count: Int) throws(BackendFailure) -> [[Float]]

    /// Nil when the protocol has no token-counting endpoint.
    func countTokensRequest(_ request: BackendRequest, credential: String?) throws(BackendFailure) -> HTTPRequest?
    func decodeTokenCount(_ body: JSONValue) throws(BackendFailure) -> Int

    func listModelsRequest(credential: String?) -> HTTPRequest
    func decodeModelList(_ body: JSONValue) throws(BackendFailure) -> [String]
}

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

/// How a generation ended, from the server's side.
public struct GenerationOutcome: Hashable, Sendable {
    public var finish: FinishReason
    public var modelVersion: String
    public var usage: Usage?

    public init(finish: FinishReason, modelVersion: String, usage: Usage?) {
        self.finish = finish
        self.modelVersion = modelVersion
        self.usage = usage
    }
}

/// Decoding helpers shared by both dialects.
enum Wire {
    static func parseJSONArgument(_ text: String, _ what: @autoclosure () -> String) throws(BackendFailure) -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            throw BackendFailure(.invalidArgument, "\(what()) is not valid JSON: \(error)")
        }
    }

    static func decodingFailure(_ what: String) -> BackendFailure { BackendFailure(.decoding, what) }

    /// A stream that ended without its natural end is an error, never a truncated success.
    static func cutStream(_ detail: String) -> BackendFailure {
        BackendFailure(.serverError, "the response stream ended before its natural end (\(detail))")
    }

    /// Error text the server wrote into the stream outside SSE framing, when it is one.
    static func strayError(_ strayText: [UInt8]) -> BackendFailure? {
        guard !strayText.isEmpty else { return nil }
        if let json = try? JSONParser.parse(strayText), let envelope = ServerErrorBody(json) {
            return HTTPFailureMapper.failure(inStream: envelope)
        }
        return nil
    }

    static func floats(_ values: JSONValue?, _ what: String) throws(BackendFailure) -> [Float] {
        guard let items = values?.arrayValue else { throw decodingFailure("\(what) is missing or not an array") }
        var out: [Float] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard let d = item.doubleValue else { throw decodingFailure("\(what) holds a value that is not a number") }
            out.append(Float(d))
        }
        return out
    }
}
