import Foundation
import Synchronization
import Tandem

/// One request in flight: its own cancellation token, which the plugin polls, and why it was
/// cancelled when it was: the client hung up, the request's time ran out, or the server
/// gave up waiting for it while shutting down.
///
/// - Note: Thread-safe.
final class RequestRun: Sendable {
    enum Ending: Sendable {
        case clientGone, deadline, shutdown
    }

    let token = CancellationToken()
    private let ending = Mutex<Ending?>(nil)

    /// Cancels the request's token for `reason` (the first reason is kept).
    func cancel(_ reason: Ending) {
        let first = ending.withLock { ending -> Bool in
            guard ending == nil else { return false }
            ending = reason
            return true
        }
        if first { token.cancel() }
    }

    var endedBy: Ending? { ending.withLock { $0 } }

    /// Cancels with `.deadline` after `seconds`, unless the request ends first (`done`).
    func startDeadline(seconds: Double, done: @escaping @Sendable () -> Bool) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            if !done() { cancel(.deadline) }
        }
    }
}

/// The requests in flight, so shutdown can wait for them and then cancel the rest.
///
/// - Note: Thread-safe.
final class InFlightRequests: Sendable {
    private struct State {
        var runs: [ObjectIdentifier: RequestRun] = [:]
        var draining = false
    }
    private let state = Mutex(State())

    /// Adds `run`; false once draining has begun (the request is then refused with 503).
    func begin(_ run: RequestRun) -> Bool {
        state.withLock { state in
            guard !state.draining else { return false }
            state.runs[ObjectIdentifier(run)] = run
            return true
        }
    }

    func end(_ run: RequestRun) {
        _ = state.withLock { $0.runs.removeValue(forKey: ObjectIdentifier(run)) }
    }

    var count: Int { state.withLock { $0.runs.count } }
    var isDraining: Bool { state.withLock { $0.draining } }

    /// Refuses new requests, waits up to `seconds` for the ones in flight, then cancels those
    /// left and waits (briefly) for them to answer. Returns how many had to be cancelled.
    func drain(seconds: Double) -> Int {
        state.withLock { $0.draining = true }
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while count > 0 && ContinuousClock.now < deadline { usleep(20_000) }
        let left = state.withLock { Array($0.runs.values) }
        left.forEach { $0.cancel(.shutdown) }
        let grace = ContinuousClock.now + .seconds(5)
        while count > 0 && ContinuousClock.now < grace { usleep(20_000) }
        return left.count
    }
}
