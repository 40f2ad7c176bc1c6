import Foundation

/// Runs work against a deadline. When the deadline passes first, the work task is cancelled and
/// the caller gets `nil` at once, without waiting for work that ignores cancellation.
enum Deadline {
    static func run<T: Sendable>(until deadline: ContinuousClock.Instant,
                                 _ work: @escaping @Sendable () async throws -> T) async throws -> T? {
        let once = ResumeOnce<T?>()
        let worker = Task { try await work() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                once.install(continuation)
                let timer = Task {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    if once.resume(.success(nil)) { worker.cancel() }
                }
                Task {
                    do { once.resume(.success(try await worker.value)) } catch { once.resume(.failure(error)) }
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
