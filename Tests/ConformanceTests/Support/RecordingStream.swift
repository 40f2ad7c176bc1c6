import CTandemABI
import Glibc
import Tandem

/// A `tandem_stream` that records every event and checks the stream rules: events decode, text
/// is never empty, and callbacks come on the thread that called generate.
final class RecordingStream {
    private(set) var events: [BackendEvent] = []
    private(set) var problems: [String] = []
    /// Decides the answer to each event (by its index); continue by default.
    var decide: (Int, BackendEvent) -> tandem_flow = { _, _ in TANDEM_CONTINUE }
    private let thread = pthread_self()
    private var stopped = false

    var text: String {
        events.compactMap { if case .text(let piece) = $0 { piece } else { nil } }.joined()
    }
    var textEventCount: Int {
        events.filter { if case .text = $0 { true } else { false } }.count
    }

    func cStream(_ size: StructSize = .exact) -> SizedStruct<tandem_stream> {
        let stream = tandem_stream(
            struct_size: 0, user_data: Unmanaged.passUnretained(self).toOpaque(),
            on_event: { data, event in Unmanaged<RecordingStream>.fromOpaque(data!).takeUnretainedValue().receive(event) })
        return SizedStruct(stream, size: size.bytes(tandem_stream.self, smallerEndsAt: end(of: \tandem_stream.user_data)))
    }

    private func receive(_ event: UnsafePointer<tandem_event>?) -> tandem_flow {
        if pthread_equal(pthread_self(), thread) == 0 { problems.append("event on another thread") }
        if stopped { problems.append("event after TANDEM_STOP") }
        guard let event else {
            problems.append("NULL event")
            return TANDEM_STOP
        }
        do {
            let decoded = try BackendEvent(event)
            if case .text(let piece) = decoded, piece.isEmpty { problems.append("empty text event") }
            events.append(decoded)
            let flow = decide(events.count - 1, decoded)
            if flow == TANDEM_STOP { stopped = true }
            return flow
        } catch {
            problems.append("malformed event: \(error)")
            return TANDEM_STOP
        }
    }
}
