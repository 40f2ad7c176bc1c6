import Foundation

/// A streamed response body: a producer thread writes chunks, the connection's thread sends
/// them as they come. When the client goes away (the connection closed or failed to take a
/// chunk), `onClientGone` runs once, so the producer can cancel what it is generating.
///
/// - Note: Thread-safe.
public final class ResponseStream: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    private var finished = false
    private var clientGone = false
    private var goneHandler: (@Sendable () -> Void)?

    public init() {}

    /// Runs `handler` once when the client is gone (at once when it already is).
    public func onClientGone(_ handler: @escaping @Sendable () -> Void) {
        condition.lock()
        if clientGone {
            condition.unlock()
            handler()
            return
        }
        goneHandler = handler
        condition.unlock()
    }

    /// Queues `bytes` for the client; false when the client is gone (stop producing).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !clientGone, !finished else { return false }
        pending += bytes
        condition.signal()
        return true
    }

    /// Ends the body after what was written.
    public func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    public var isClientGone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return clientGone
    }

    /// What the connection thread may send next.
    enum Next {
        case bytes(Int)
        case end
    }

    /// Blocks until bytes or the end are there; copies at most `capacity` bytes into `buffer`.
    func next(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Next {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && !finished && !clientGone { condition.wait() }
        guard !pending.isEmpty, !clientGone else { return .end }
        let count = min(capacity, pending.count)
        pending.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: count) }
        pending.removeFirst(count)
        return .bytes(count)
    }

    /// The connection is closed (finished, hung up or failed): nothing more will be sent.
    func clientDisconnected() {
        condition.lock()
        let handler = finished && pending.isEmpty ? nil : goneHandler
        clientGone = true
        goneHandler = nil
        condition.broadcast()
        condition.unlock()
        handler?()
    }
}
