import CTandemABI
import Glibc
import Synchronization

/// The receiving end of a plugin's `tandem_stream` for one `generate` call: decodes each event
/// and hands it to the caller's closure. A malformed event, an event after the caller said stop,
/// or an event from another thread ends the stream and is reported as the call's failure rather
/// than trusted.
final class StreamSink {
    private let onEvent: (BackendEvent) -> Bool
    private let callingThread = pthread_self()
    private var stopped = false
    private var brokenContract: BackendFailure?
    /// Set (and nothing else touched) when an event arrives on a thread other than the caller's.
    private let wrongThread = Atomic(false)

    init(_ onEvent: @escaping (BackendEvent) -> Bool) {
        self.onEvent = onEvent
    }

    /// Set when the plugin broke the stream contract. Read after `generate` returned.
    var failure: BackendFailure? {
        if wrongThread.load(ordering: .acquiring) {
            return BackendFailure(.decoding, "the plugin sent an event from another thread than the caller's")
        }
        return brokenContract
    }

    /// The body of `on_event`: runs on the plugin's calling thread, before `generate` returns.
    func deliver(_ event: UnsafePointer<tandem_event>?) -> tandem_flow {
        guard pthread_equal(pthread_self(), callingThread) != 0 else {
            wrongThread.store(true, ordering: .releasing)
            return TANDEM_STOP
        }
        guard brokenContract == nil else { return TANDEM_STOP }
        guard !stopped else {
            brokenContract = BackendFailure(.decoding, "the plugin sent an event after the host asked it to stop")
            return TANDEM_STOP
        }
        guard let event else {
            brokenContract = BackendFailure(.decoding, "the plugin sent a NULL event")
            return TANDEM_STOP
        }
        let decoded: BackendEvent
        do throws(BackendFailure) {
            decoded = try BackendEvent(event)
        } catch {
            brokenContract = BackendFailure(.decoding, "the plugin sent a malformed event: \(error.message)")
            return TANDEM_STOP
        }
        if case .text(let text) = decoded, text.isEmpty {
            brokenContract = BackendFailure(.decoding, "the plugin sent an empty text event")
            return TANDEM_STOP
        }
        if onEvent(decoded) { return TANDEM_CONTINUE }
        stopped = true
        return TANDEM_STOP
    }
}
