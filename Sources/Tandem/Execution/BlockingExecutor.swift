import Foundation

/// Runs blocking plugin calls on dedicated threads, never on Swift's cooperative pool (a
/// generation can block for minutes; on the pool it would starve every other task).
///
/// Threads are created on demand and kept for reuse, so the pool grows to the peak number of
/// overlapping calls; a call that hangs until cancelled never delays another.
///
/// - Note: Thread-safe.
public final class BlockingExecutor: @unchecked Sendable {
    /// The process-wide executor the sessions use.
    public static let shared = BlockingExecutor()

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    /// Idle workers not yet promised a job.
    private var idle = 0

    public init() {}

    /// Runs `job` on a worker thread; returns at once.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let wakeIdle = idle > 0
        if wakeIdle {
            idle -= 1
            condition.signal()
        }
        condition.unlock()
        if !wakeIdle {
            let thread = Thread { [self] in work() }
            thread.name = "tandem-blocking"
            thread.stackSize = 8 << 20  // plugins may recurse deeply (schemas, templates); only address space
            thread.start()
        }
    }

    /// Runs `body` on a worker thread and waits for it without blocking the caller's thread.
    /// Cancelling the calling task cancels `token`, which the plugin polls.
    public func run<T: Sendable>(cancelling token: CancellationToken, _ body: @escaping @Sendable () -> T) async -> T {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                submit { continuation.resume(returning: body()) }
            }
        } onCancel: {
            token.cancel()
        }
    }

    private func work() {
        condition.lock()
        while true {
            if head < jobs.count {
                let job = jobs[head]
                head += 1
                if head == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    head = 0
                }
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            idle += 1
            // A worker woken for a job another worker took keeps waiting; at worst the idle
            // count undercounts and a later call starts one extra thread.
            repeat { condition.wait() } while head >= jobs.count
        }
    }
}
