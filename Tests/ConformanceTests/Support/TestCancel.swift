import CTandemABI
import Synchronization

/// A host cancellation token written for the suite (independent of the host's own), recording
/// how the plugin uses it.
final class TestCancel: @unchecked Sendable {
    fileprivate struct Waker: @unchecked Sendable {
        let wake: @convention(c) (UnsafeMutableRawPointer?) -> Void
        let context: UnsafeMutableRawPointer?
        func fire() { wake(context) }
    }
    private struct State {
        var cancelled = false
        var waker: Waker?
        var registrations = 0
    }
    private let state = Mutex(State())
    /// Held while a waker runs and while one is (un)registered: once set_waker returns, the old
    /// waker is not running, as the header guarantees. A waker may still poll is_cancelled.
    private let wakeLock = Mutex(())

    var registrations: Int { state.withLock { $0.registrations } }
    var wakerRegistered: Bool { state.withLock { $0.waker != nil } }

    func cancel() {
        wakeLock.withLock { _ in
            let waker = state.withLock { state -> Waker? in
                guard !state.cancelled else { return nil }
                state.cancelled = true
                defer { state.waker = nil }
                return state.waker
            }
            waker?.fire()
        }
    }

    fileprivate func setWaker(_ waker: Waker?) {
        wakeLock.withLock { _ in
            let runNow = state.withLock { state -> Bool in
                guard let waker else {
                    state.waker = nil
                    return false
                }
                state.registrations += 1
                if state.cancelled { return true }
                state.waker = waker
                return false
            }
            if runNow { waker?.fire() }
        }
    }

    fileprivate var isCancelled: Bool { state.withLock { $0.cancelled } }

    func cToken(_ size: StructSize = .exact) -> SizedStruct<tandem_cancel> {
        let token = tandem_cancel(
            struct_size: 0, data: Unmanaged.passUnretained(self).toOpaque(),
            is_cancelled: { data in Unmanaged<TestCancel>.fromOpaque(data!).takeUnretainedValue().isCancelled },
            set_waker: { data, wake, context in
                Unmanaged<TestCancel>.fromOpaque(data!).takeUnretainedValue().setWaker(wake.map { Waker(wake: $0, context: context) })
            })
        return SizedStruct(token, size: size.bytes(tandem_cancel.self, smallerEndsAt: end(of: \tandem_cancel.is_cancelled)))
    }
}
