import Foundation
import Synchronization
import Testing
@testable import Tandem

/// Plugin calls run on dedicated threads: blocked calls never starve the cooperative pool or
/// each other, and task cancellation reaches the token.
@Suite struct BlockingExecutorTests {
    @Test func manyBlockedCallsDoNotStarveOthers() async throws {
        let executor = BlockingExecutor()
        let tokens = (0..<16).map { _ in CancellationToken() }
        // More blocked calls than the machine has cores (and than the cooperative pool has threads).
        let blocked = tokens.map { token in
            Task {
                await executor.run(cancelling: token) {
                    let woken = DispatchSemaphore(value: 0)
                    token.addWaker { woken.signal() }
                    woken.wait()
                    return Thread.isMainThread
                }
            }
        }
        let answer = await executor.run(cancelling: CancellationToken()) { 42 }
        #expect(answer == 42)
        try await Task.sleep(for: .milliseconds(1))  // the cooperative pool is still free to run this
        for task in blocked { task.cancel() }
        for task in blocked { #expect(await task.value == false) }
    }

    /// Cancelling the calling task cancels the token, whether the caller waits on a continuation
    /// (nonisolated) or its task runs the call on a worker (actor-isolated, the executor being
    /// its task executor).
    @Test(arguments: [false, true]) func cancellingTheTaskCancelsTheToken(fromMainActor: Bool) async {
        let executor = BlockingExecutor()
        let token = CancellationToken()
        let started = DispatchSemaphore(value: 0)
        let body: @Sendable () -> Bool = {
            started.signal()
            while !token.isCancelled { usleep(100) }
            return true
        }
        let task = fromMainActor
            ? Task { @MainActor in await executor.run(cancelling: token, body) }
            : Task { await executor.run(cancelling: token, body) }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                started.wait()
                continuation.resume()
            }
        }
        task.cancel()
        #expect(await task.value)
        #expect(token.isCancelled)
    }

    /// A blocked call from an actor-isolated caller holds only its worker: the actor and other
    /// calls go on.
    @Test func aBlockedActorIsolatedCallDoesNotHoldTheActor() async {
        let executor = BlockingExecutor()
        let token = CancellationToken()
        let blocked = Task { @MainActor in
            await executor.run(cancelling: token) { () -> Bool in
                let woken = DispatchSemaphore(value: 0)
                token.addWaker { woken.signal() }
                woken.wait()
                return true
            }
        }
        let answer = await Task { @MainActor in await executor.run(cancelling: CancellationToken()) { 42 } }.value
        #expect(answer == 42)
        blocked.cancel()
        #expect(await blocked.value)
    }

    /// Calls one after another share one worker, whether the caller is an actor or not: a
    /// finished call frees its worker before its caller resumes, so the next call never finds
    /// all workers busy and starts a thread (the pool used to grow by one thread every time the
    /// resumed caller won that race).
    @Test(arguments: [false, true]) func sequentialCallsReuseOneWorker(fromMainActor: Bool) async {
        let executor = BlockingExecutor()
        let threads = Mutex<Set<pthread_t>>([])
        let body: @Sendable () -> Void = { threads.withLock { _ = $0.insert(pthread_self()) } }
        for _ in 0..<300 {
            if fromMainActor {
                await Task { @MainActor in await executor.run(cancelling: CancellationToken(), body) }.value
            } else {
                await executor.run(cancelling: CancellationToken(), body)
            }
        }
        #expect(threads.withLock { $0.count } == 1)
    }

    /// A submitted job that releases its worker before handing its result over (as a streamed
    /// response does) lets the next job reuse that worker.
    @Test func aReleasedWorkerTakesTheNextJob() async {
        let executor = BlockingExecutor()
        let threads = Mutex<Set<pthread_t>>([])
        for _ in 0..<300 {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                executor.submit {
                    threads.withLock { _ = $0.insert(pthread_self()) }
                    executor.releaseCurrentWorker()
                    continuation.resume()
                }
            }
        }
        #expect(threads.withLock { $0.count } == 1)
    }
}
