import CTandemABI
import Dispatch
import Glibc
import TandemBridge

/// The host's cancellation token as a plugin sees it. Borrowed for one call.
public struct PluginCancellation: @unchecked Sendable {
    private let token: UnsafePointer<tandem_cancel>?

    /// A token whose struct_size stops before `is_cancelled` (or a NULL one) never cancels.
    public init(_ token: UnsafePointer<tandem_cancel>?) {
        guard let token, structHasField(token, structSize: token.pointee.struct_size, \.is_cancelled) else {
            self.token = nil
            return
        }
        self.token = token
    }

    /// Cheap; poll it at least once per token, per network read, per prefill chunk.
    public var isCancelled: Bool {
        guard let token, let check = token.pointee.is_cancelled else { return false }
        return check(token.pointee.data)
    }

    /// Runs `body` with `onCancel` registered as the waker (called at most once, from any
    /// thread), and unregisters it before returning, as the ABI requires.
    public func withWaker<R>(_ onCancel: @escaping @Sendable () -> Void, _ body: () throws -> R) rethrows -> R {
        guard let token, structHasField(token, structSize: token.pointee.struct_size, \.set_waker),
              let setWaker = token.pointee.set_waker else { return try body() }
        let box = Unmanaged.passRetained(WakerBox(onCancel))
        setWaker(token.pointee.data, { context in
            Unmanaged<WakerBox>.fromOpaque(context!).takeUnretainedValue().fire()
        }, box.toOpaque())
        defer {
            setWaker(token.pointee.data, nil, nil)
            box.release()
        }
        return try body()
    }
}

private final class WakerBox: Sendable {
    let action: @Sendable () -> Void
    init(_ action: @escaping @Sendable () -> Void) { self.action = action }
    func fire() { action() }
}

extension PluginCancellation {
    /// Waits `duration` (forever when nil) or until the host cancels, whichever comes first;
    /// returns true when cancelled. Uses the host's waker when it offers one, else polls every
    /// 5 ms. Waiting forever without a token would never end, so it is refused: returns true
    /// at once when there is no token and `duration` is nil.
    public func sleep(for duration: Duration?) -> Bool {
        guard let token else {
            if let duration { Self.pause(duration) }
            return duration == nil
        }
        let canWake = structHasField(token, structSize: token.pointee.struct_size, \.set_waker) && token.pointee.set_waker != nil
        let deadline = duration.map { ContinuousClock.now + $0 }
        guard canWake else {
            while !isCancelled {
                if let deadline, ContinuousClock.now >= deadline { return false }
                Self.pause(.milliseconds(5))
            }
            return true
        }
        let semaphore = DispatchSemaphore(value: 0)
        return withWaker({ semaphore.signal() }) {
            while !isCancelled {
                guard let deadline else { semaphore.wait(); continue }
                let remaining = ContinuousClock.now.duration(to: deadline)
                if remaining <= .zero { return false }
                let nanoseconds = remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000
                _ = semaphore.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
            }
            return true
        }
    }

    private static func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var remaining = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var request = remaining
        while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
    }
}
