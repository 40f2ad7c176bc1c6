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
    /// Workers that will look at the queue before they sleep: waiting ones, ones starting, and
    /// ones whose job has released them (`releaseCurrentWorker`). A job is queued only when one
    /// of them is left for it; otherwise a thread is started.
    private var free = 0
    /// Workers running a job, and whether that job has already counted them in `free`.
    private var running: [pthread_t: Bool] = [:]

    public init() {}

    /// Runs `job` on a worker thread; returns at once.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let startThread = jobs.count - head > free
        if startThread { free += 1 }  // the new thread, until it takes a job
        condition.signal()
        condition.unlock()
        if startThread {
            let thread = Thread { [self] in work() }
            thread.name = "tandem-blocking"
            thread.stackSize = 8 << 20  // plugins may recurse deeply (schemas, templates); only address space
            thread.start()
        }
    }

    /// Called by a job on its worker when all that is left of it is short (handing a result
    /// back): the worker counts as free from now on, so a request its caller starts at once
    /// reuses it instead of starting a thread. Does nothing off a worker or when repeated.
    func releaseCurrentWorker() {
        let me = pthread_self()
        condition.lock()
        if running[me] == false {
            running[me] = true
            free += 1
        }
        condition.unlock()
    }

    /// Runs `body` on a worker thread and waits for it without blocking the caller's thread.
    /// Cancelling the calling task cancels `token`, which the plugin polls.
    ///
    /// An actor-isolated caller's task moves to a worker for the call (this executor is its
    /// task executor) and returns from there straight to the actor: two thread switches.
    /// Waiting on a continuation would cost such a caller a third, since a continuation resumed
    /// from another thread goes through the global executor before the actor. A nonisolated
    /// caller waits on a continuation, which brings it back to the global executor where it
    /// belongs (a task leaving the worker without an actor would run its caller's code there).
    public nonisolated(nonsending) func run<T: Sendable>(
        cancelling token: CancellationToken, _ body: @escaping @Sendable () -> T
    ) async -> T {
        let isolation: (any Actor)? = #isolation  // bound first: `#isolation != nil` crashes the 6.3 compiler (SIL ownership verifier)
        if isolation != nil {
            return await withTaskExecutorPreference(self) { await self.runOnWorker(cancelling: token, body) }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                submit {
                    let value = body()
                    self.releaseCurrentWorker()
                    continuation.resume(returning: value)
                }
            }
        } onCancel: {
            token.cancel()
        }
    }

    /// `@concurrent` leaves the caller's actor, and the task executor preference makes "off the
    /// actor" mean a worker of this executor rather than the cooperative pool.
    @concurrent private func runOnWorker<T: Sendable>(
        cancelling token: CancellationToken, _ body: @escaping @Sendable () -> T
    ) async -> T {
        let value = await withTaskCancellationHandler { body() } onCancel: { token.cancel() }
        releaseCurrentWorker()
        return value
    }

    private func work() {
        let me = pthread_self()
        condition.lock()
        while true {
            if head < jobs.count {
                let job = jobs[head]
                head += 1
                free -= 1
                running[me] = false
                if head == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    head = 0
                }
                condition.unlock()
                job()
                condition.lock()
                if running.removeValue(forKey: me) == false { free += 1 }
                continue
            }
            repeat { condition.wait() } while head >= jobs.count
        }
    }
}

extension BlockingExecutor: TaskExecutor {
    /// Runs a task's job on a worker thread (see `run`): the job may block for as long as the
    /// plugin call takes without holding up the cooperative pool.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        submit { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
