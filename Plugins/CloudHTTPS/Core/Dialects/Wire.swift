import JSONModel
import TandemBridge

/// Decoding helpers shared by both dialects.
enum Wire {
    static func parseJSONArgument(_ text: String, _ what: @autoclosure () -> String) throws(BackendFailure) -> JSONValue {
        do {
            return try JSONValue(parsing: text, keepingNumberText: true)
        } catch {
            throw BackendFailure(.invalidArgument, "\(what()) is not valid JSON: \(error)")
        }
    }

    static func decodingFailure(_ what: String) -> BackendFailure { BackendFailure(.decoding, what) }

    /// A stream that ended without its natural end is an error, never a truncated success.
    static func cutStream(_ detail: String) -> BackendFailure {
        BackendFailure(.serverError, "the response stream ended before its natural end (\(detail))")
    }

    /// What the lines of a stream that were not SSE (`strayText`) say: an error object the server
    /// wrote there is that error; any other text, in a stream without its natural end, means the
    /// body was not an event stream at all (an HTML page from a proxy or captive portal served
    /// as `text/event-stream`): `decoding`, not a cut stream. Nil when neither applies.
    static func strayFailure(_ strayText: [UInt8], endedNaturally: Bool) -> BackendFailure? {
        guard !strayText.isEmpty else { return nil }
        if let json = try? JSONValue(parsing: strayText, keepingNumberText: true), let envelope = ServerErrorBody(json) {
            return HTTPFailureMapper.failure(inStream: envelope)
        }
        guard !endedNaturally else { return nil }
        let excerpt = HTTPFailureMapper.clip(String(decoding: strayText.prefix(200), as: UTF8.self))
        return decodingFailure("the stream held text that is not SSE: \(excerpt)")
    }

    static func floats(_ values: JSONValue?, _ what: String) throws(BackendFailure) -> [Float] {
        guard let items = values?.arrayValue else { throw decodingFailure("\(what) is missing or not an array") }
        var out: [Float] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard let d = item.numberValue else { throw decodingFailure("\(what) holds a value that is not a number") }
            out.append(Float(d))
        }
        return out
    }
}
