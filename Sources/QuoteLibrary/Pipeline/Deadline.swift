import Foundation

/// Runs work against a deadline on a `BudgetClock`. When the deadline passes first, the work
/// task is cancelled and the caller gets `nil` at once, without waiting for work that ignores
/// cancellation. Work that ends after the deadline also gives `nil`, even if the timer has not
/// fired yet: what the budget did not cover is never used.
enum Deadline {
    static func run<T: Sendable>(until deadline: Duration, on clock: BudgetClock,
                                 _ work: @escaping @Sendable () async throws -> T) async throws -> T? {
        guard clock.now < deadline else { return nil }
        let once = ResumeOnce<T?>()
        let worker = Task { try await work() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                once.install(continuation)
                let timer = Task {
                    do { try await clock.sleep(until: deadline) } catch { return }
                    if once.resume(.success(nil)) { worker.cancel() }
                }
                Task {
                    do {
                        let value = try await worker.value
                        once.resume(.success(clock.now < deadline ? value : nil))
                    } catch {
                        once.resume(.failure(error))
                    }
                    timer.cancel()
                }
            }
        } onCancel: {
            worker.cancel()
            once.resume(.failure(CancellationError()))
        }
    }
}

/// Resumes a continuation exactly once, whichever side finishes first.
private final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Error>?
    private var pending: Result<T, Error>?
    private var done = false

    func install(_ continuation: CheckedContinuation<T, Error>) {
        lock.lock()
        if let pending {
            lock.unlock()
            continuation.resume(with: pending)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    /// Returns true when this call won.
    @discardableResult
    func resume(_ result: Result<T, Error>) -> Bool {
        lock.lock()
        guard !done else { lock.unlock(); return false }
        done = true
        if let continuation {
            self.continuation = nil
            lock.unlock()
            continuation.resume(with: result)
        } else {
            pending = result
            lock.unlock()
        }
        return true
    }
}
