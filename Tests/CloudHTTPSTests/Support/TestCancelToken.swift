import CTandemABI
import Synchronization

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
