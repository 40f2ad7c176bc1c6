import CTandemABI
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
                recorder.arrivalMilliseconds.append(MonotonicMilliseconds.now())
                recorder.onEvent?(decoded)
                if let limit = recorder.stopAfter, recorder.events.count >= limit { return TANDEM_STOP }
                return TANDEM_CONTINUE
            })
        return try body(&stream)
    }

}

enum MonotonicMilliseconds {
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}

/// A host-owned cancellation token with a waker, as the ABI describes it.
final class TestCancelToken: @unchecked Sendable {
    private struct State {
        var cancelled = false
        var waker: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?
        var context: UInt = 0  // the waker's context pointer, as bits (Sendable)
        var wakerRegistrations = 0
    }
    private let state = Mutex(State())

    var wakerRegistrations: Int { state.withLock { $0.wakerRegistrations } }
    var wakerRegistered: Bool { state.withLock { $0.waker != nil } }

    func cancel() {
        let wake = state.withLock { s -> (() -> Void)? in
            s.cancelled = true
            guard let waker = s.waker else { return nil }
            let context = UnsafeMutableRawPointer(bitPattern: s.context)
            s.waker = nil
            return { waker(context) }
        }
        wake?()
    }

    func withToken<R>(_ body: (UnsafePointer<tandem_cancel>) throws -> R) rethrows -> R {
        var token = tandem_cancel(
            struct_size: UInt32(MemoryLayout<tandem_cancel>.size),
            data: Unmanaged.passUnretained(self).toOpaque(),
            is_cancelled: { data in
                Unmanaged<TestCancelToken>.fromOpaque(data!).takeUnretainedValue().state.withLock { $0.cancelled }
            },
            set_waker: { data, wake, context in
                let token = Unmanaged<TestCancelToken>.fromOpaque(data!).takeUnretainedValue()
                let bits = UInt(bitPattern: context)
                let fireNow = token.state.withLock { s -> Bool in
                    if wake != nil { s.wakerRegistrations += 1 }
                    if s.cancelled && wake != nil { return true }
                    s.waker = wake
                    s.context = bits
                    return false
                }
                if fireNow { wake?(context) }
            })
        return try body(&token)
    }
}
