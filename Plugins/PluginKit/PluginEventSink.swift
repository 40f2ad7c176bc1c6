import CTandemABI
import TandemBridge

/// Delivers events to the host's stream callback. Borrowed for one call; use it only on the
/// thread that received it, before `generate` returns.
public struct PluginEventSink {
    private let stream: UnsafePointer<tandem_stream>?

    /// A stream whose struct_size stops before `on_event` (or a NULL one) discards the output.
    public init(_ stream: UnsafePointer<tandem_stream>?) {
        guard let stream, structHasField(stream, structSize: stream.pointee.struct_size, \.on_event) else {
            self.stream = nil
            return
        }
        self.stream = stream
    }

    /// Sends one event; returns false when the host asked to stop.
    public func send(_ event: BackendEvent) -> Bool {
        guard let stream, let onEvent = stream.pointee.on_event else { return true }
        if case .text(let text) = event, text.isEmpty { return true }  // the ABI promises non-empty text
        let flow = event.withCEvent { onEvent(stream.pointee.user_data, $0) }
        return flow == TANDEM_CONTINUE
    }
}
