import CTandemABI
import Synchronization

/// The host's cancellation token as a plugin sees it. Borrowed for one call.
public struct PluginCancellation: @unchecked Sendable {
    private let token: UnsafePointer<tandem_cancel>?

    public init(_ token: UnsafePointer<tandem_cancel>?) { self.token = token }

    /// Cheap; poll it at least once per token, per network read, per prefill chunk.
    public var isCancelled: Bool {
        guard let token, let check = token.pointee.is_cancelled else { return false }
        return check(token.pointee.data)
    }

    /// Runs `body` with `onCancel` registered as the waker (called at most once, from any
    /// thread), and unregisters it before returning, as the ABI requires.
    public func withWaker<R>(_ onCancel: @escaping @Sendable () -> Void, _ body: () throws -> R) rethrows -> R {
        guard let token, let setWaker = token.pointee.set_waker else { return try body() }
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
