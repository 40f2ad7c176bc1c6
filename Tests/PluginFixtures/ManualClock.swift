import Foundation

/// A clock that moves only when a test advances it (as swift-nio's embedded event loop does with
/// `advanceTime`): tests of deadlines decide when time passes instead of sleeping. It has the
/// shape of QuoteLibrary's `BudgetClock` (QuoteLibraryTests declares the conformance).
public final class ManualClock: @unchecked Sendable {
    private struct Sleeper {
        let deadline: Duration
        let continuation: CheckedContinuation<Void, Error>
    }

    private let lock = NSLock()
    private var current: Duration = .zero
    private var sleepers: [UUID: Sleeper] = [:]
    private var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    public init() {}

    public var now: Duration { lock.withLock { current } }

    public func sleep(until instant: Duration) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                lock.lock()
                if instant <= current {
                    lock.unlock()
                    continuation.resume()
                } else if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                } else {
                    sleepers[id] = Sleeper(deadline: instant, continuation: continuation)
                    let satisfied = takeSatisfiedWatchers()
                    lock.unlock()
                    satisfied.forEach { $0.resume() }
                }
            }
        } onCancel: {
            let sleeper = lock.withLock { sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes every sleeper whose instant has come.
    public func advance(by duration: Duration) {
        lock.lock()
        current += duration
        let due = sleepers.filter { $0.value.deadline <= current }
        due.keys.forEach { sleepers.removeValue(forKey: $0) }
        lock.unlock()
        due.values.sorted { $0.deadline < $1.deadline }.forEach { $0.continuation.resume() }
    }

    /// Returns once at least `count` tasks are sleeping on this clock.
    public func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if sleepers.count >= count {
                lock.unlock()
                continuation.resume()
            } else {
                watchers.append((count, continuation))
                lock.unlock()
            }
        }
    }

    /// Called with the lock held.
    private func takeSatisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
        let satisfied = watchers.filter { sleepers.count >= $0.count }
        watchers.removeAll { sleepers.count >= $0.count }
        return satisfied.map(\.continuation)
    }
}

extension ManualClock {
    /// This clock as a Swift `Clock`, for code that takes one (`ModelPreparation.wait`): the
    /// same time, moved by the same `advance`.
    public var standard: Standard { Standard(manual: self) }

    public struct Standard: Clock {
        public struct Instant: InstantProtocol {
            public var offset: Duration
            public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
            public func duration(to other: Instant) -> Duration { other.offset - offset }
            public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
        }

        let manual: ManualClock
        public var now: Instant { Instant(offset: manual.now) }
        public var minimumResolution: Duration { .zero }
        public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
            try await manual.sleep(until: deadline.offset)
        }
    }
}
