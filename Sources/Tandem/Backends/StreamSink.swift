import CTandemABI

/// The receiving end of a plugin's `tandem_stream` for one `generate` call: decodes each event
/// and hands it to the caller's closure. A malformed event, or an event after the caller said
/// stop, ends the stream and is reported as the call's failure rather than trusted.
final class StreamSink {
    private let onEvent: (BackendEvent) -> Bool
    private var stopped = false
    /// Set when the plugin broke the stream contract.
    private(set) var failure: BackendFailure?

    init(_ onEvent: @escaping (BackendEvent) -> Bool) {
        self.onEvent = onEvent
    }

    /// The body of `on_event`: runs on the plugin's calling thread, before `generate` returns.
    func deliver(_ event: UnsafePointer<tandem_event>?) -> tandem_flow {
        guard failure == nil else { return TANDEM_STOP }
        guard !stopped else {
            failure = BackendFailure(.decoding, "the plugin sent an event after the host asked it to stop")
            return TANDEM_STOP
        }
        guard let event else {
            failure = BackendFailure(.decoding, "the plugin sent a NULL event")
            return TANDEM_STOP
        }
        let decoded: BackendEvent
        do throws(BackendFailure) {
            decoded = try BackendEvent(event)
        } catch {
            failure = BackendFailure(.decoding, "the plugin sent a malformed event: \(error.message)")
            return TANDEM_STOP
        }
        if case .text(let text) = decoded, text.isEmpty {
            failure = BackendFailure(.decoding, "the plugin sent an empty text event")
            return TANDEM_STOP
        }
        if onEvent(decoded) { return TANDEM_CONTINUE }
        stopped = true
        return TANDEM_STOP
    }
}
