import CTandemABI
import CloudHTTPSCore
import Glibc
import Synchronization
import TandemBridge
import TandemPluginKit

/// What a host's stream callback sees: every event, in order. Optionally asks to stop after
/// `stopAfter` events, as a host whose consumer went away would.
final class EventRecorder: @unchecked Sendable {
    private(set) var events: [BackendEvent] = []
    private(set) var arrivalMilliseconds: [Int64] = []
    var stopAfter: Int?
    var onEvent: ((BackendEvent) -> Void)?

    var text: String {
        events.compactMap { if case .text(let t) = $0 { t } else { nil } }.joined()
    }
    var toolCalls: [ToolCall] {
        events.compactMap { if case .toolCall(let c) = $0 { c } else { nil } }
    }
    var usages: [Usage] {
        events.compactMap { if case .usage(let u) = $0 { u } else { nil } }
    }

    /// Calls `body` with a C stream whose callback records into this recorder.
    func withStream<R>(_ body: (UnsafePointer<tandem_stream>) throws -> R) rethrows -> R {
        var stream = tandem_stream(
            struct_size: UInt32(MemoryLayout<tandem_stream>.size),
            user_data: Unmanaged.passUnretained(self).toOpaque(),
            on_event: { user, event in
                let recorder = Unmanaged<EventRecorder>.fromOpaque(user!).takeUnretainedValue()
                guard let event, let decoded = try? BackendEvent(event) else { return TANDEM_STOP }
                recorder.events.append(decoded)
                recorder.arrivalMilliseconds.append(MonotonicClock.nowMilliseconds())
                recorder.onEvent?(decoded)
                if let limit = recorder.stopAfter, recorder.events.count >= limit { return TANDEM_STOP }
                return TANDEM_CONTINUE
            })
        return try body(&stream)
    }

}
