import Foundation
import Tandem

/// A backend whose model does not declare `concurrentCalls`, behind a bounded queue: its calls
/// run one at a time, in turn, and a call that finds `depth` others waiting fails at once with
/// `concurrentRequests` (the server answers 429 with Retry-After). A waiting call gives up when
/// its cancellation token fires (the client hung up, or the request's time ran out).
///
/// The router sees it as any backend, so the queue is entered only by the side that is really
/// called: a full queue on a local primary is a failure before any output, and falls back as the
/// routing rules say (README, "Routing: who answers").
///
/// - Note: Thread-safe.
final class QueuedBackend: Backend, @unchecked Sendable {
    let inner: any Backend
    let depth: Int
    private let condition = NSCondition()
    private var busy = false
    private var waiting = 0

    init(_ inner: any Backend, depth: Int) {
        self.inner = inner
        self.depth = depth
    }

    var backendID: String { inner.backendID }
    var info: ModelInfo { inner.info }
    func availability(locale: String?) -> Availability { inner.availability(locale: locale) }

    func generate(
        _ request: BackendRequest, cancellation: CancellationToken, onEvent: (BackendEvent) -> Bool
    ) throws(BackendFailure) -> BackendResult {
        try enter(cancellation)
        defer { leave() }
        return try inner.generate(request, cancellation: cancellation, onEvent: onEvent)
    }

    func embed(_ texts: [String], cancellation: CancellationToken) throws(BackendFailure) -> [[Float]] {
        try enter(cancellation)
        defer { leave() }
        return try inner.embed(texts, cancellation: cancellation)
    }

    func countTokens(_ request: BackendRequest) throws(BackendFailure) -> Int {
        try enter(CancellationToken())
        defer { leave() }
        return try inner.countTokens(request)
    }

    /// Requests waiting now (for `/health`).
    var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting
    }

    private func enter(_ cancellation: CancellationToken) throws(BackendFailure) {
        // Registered before taking the lock: a waker for a token already cancelled runs at once, here.
        let waker = cancellation.addWaker { [condition] in
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
        defer { if let waker { cancellation.removeWaker(waker) } }
        condition.lock()
        defer { condition.unlock() }
        guard busy else {
            busy = true
            return
        }
        guard waiting < depth else {
            throw BackendFailure(.concurrentRequests, "\(backendID) serves one request at a time and \(waiting) are already waiting (queue depth \(depth))")
        }
        waiting += 1
        defer { waiting -= 1 }
        while busy && !cancellation.isCancelled { condition.wait() }
        if cancellation.isCancelled { throw BackendFailure(.cancelled, "cancelled while waiting for \(backendID)") }
        busy = true
    }

    private func leave() {
        condition.lock()
        busy = false
        condition.broadcast()  // every waiter looks: one takes the turn, a cancelled one leaves
        condition.unlock()
    }
}
