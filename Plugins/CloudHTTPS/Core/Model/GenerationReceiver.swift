import JSONModel
import TandemBridge
import TandemPluginKit

/// Consumes one attempt's generation response as it arrives: SSE framing, JSON, the dialect's
/// decoder, then the host's event callback, all on the transfer's thread.
final class GenerationReceiver: TransferReceiver {
    private let streamed: Bool
    private let events: PluginEventSink
    private let cancellation: PluginCancellation
    private let maxBodyBytes: Int
    private(set) var decoder: any GenerationDecoder
    private var parser = SSEParser()
    private(set) var head: HTTPResponseHead?
    /// A non-200 body, or a whole non-streamed body.
    private(set) var body: [UInt8] = []
    private(set) var endMarkerSeen = false
    /// True once the caller received any event: from then on nothing may be retried.
    private(set) var delivered = false
    private(set) var stoppedByCaller = false
    private var eventCount = 0

    init(streamed: Bool, decoder: any GenerationDecoder, events: PluginEventSink, cancellation: PluginCancellation, maxBodyBytes: Int) {
        self.streamed = streamed
        self.decoder = decoder
        self.events = events
        self.cancellation = cancellation
        self.maxBodyBytes = maxBodyBytes
    }

    var isSuccessStatus: Bool { head?.status == 200 }

    func receiveHead(_ head: HTTPResponseHead) throws(BackendFailure) {
        self.head = head
        guard head.status == 200 else { return }
        let type = head.contentType
        if streamed {
            guard type == "text/event-stream" else {
                throw BackendFailure(.decoding, "expected a text/event-stream answer, got \(type.isEmpty ? "no content type" : HTTPFailureMapper.clip(type))")
            }
        } else {
            guard type.contains("json") else {
                throw BackendFailure(.decoding, "expected a JSON answer, got \(type.isEmpty ? "no content type" : HTTPFailureMapper.clip(type))")
            }
        }
    }

    func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>) throws(BackendFailure) -> Bool {
        guard isSuccessStatus, streamed else {
            guard body.count + bytes.count <= maxBodyBytes else {
                if !isSuccessStatus { return false }  // enough of an error body to report it
                throw BackendFailure(.decoding, "the answer is larger than max_response_bytes (\(maxBodyBytes))")
            }
            body.append(contentsOf: bytes)
            return true
        }
        var keepGoing = true
        let result = try parser.feed(bytes) { (event: SSEEvent) throws(BackendFailure) in
            guard keepGoing else { return }
            if decoder.isEndMarker(event) { endMarkerSeen = true; return }
            eventCount += 1
            let payload: JSONValue
            do {
                payload = try JSONValue(parsing: event.data, keepingNumberText: true)
            } catch {
                throw BackendFailure(.decoding, "stream event \(eventCount) is not JSON: \(error)")
            }
            for item in try decoder.decode(payload) where keepGoing {
                try deliver(item, &keepGoing)
            }
        }
        if case .failure(let overflow) = result {
            throw BackendFailure(.decoding, "a stream event is larger than \(overflow.limit) bytes")
        }
        if !keepGoing { stoppedByCaller = true }
        return keepGoing
    }

    /// Sends one event; a cancellation that came while the host handled it (often from inside the
    /// callback) ends the call before the next event.
    private func deliver(_ event: BackendEvent, _ keepGoing: inout Bool) throws(BackendFailure) {
        delivered = true
        if !events.send(event) { keepGoing = false }
        if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled while the answer was streaming") }
    }

    /// After a successful transfer of a 200 answer: decodes a buffered body, checks the stream
    /// ended naturally, and returns the outcome.
    func finish() throws(BackendFailure) -> GenerationOutcome {
        if stoppedByCaller { return decoder.partialOutcome }
        if !streamed {
            let payload: JSONValue
            do {
                payload = try JSONValue(parsing: body, keepingNumberText: true)
            } catch {
                throw BackendFailure(.decoding, "the answer is not JSON: \(error)")
            }
            var keepGoing = true
            for item in try decoder.decode(payload) where keepGoing {
                try deliver(item, &keepGoing)
            }
            if !keepGoing { stoppedByCaller = true; return decoder.partialOutcome }
        } else if parser.hasPartialEvent {
            throw Wire.cutStream("the last event was incomplete")
        }
        return try decoder.finish(endMarkerSeen: endMarkerSeen, strayText: parser.strayText)
    }
}
