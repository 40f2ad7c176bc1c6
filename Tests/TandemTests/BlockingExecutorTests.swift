import Foundation
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

    @Test func cancellingTheTaskCancelsTheToken() async {
        let executor = BlockingExecutor()
        let token = CancellationToken()
        let started = DispatchSemaphore(value: 0)
        let task = Task {
            await executor.run(cancelling: token) { () -> Bool in
                started.signal()
                while !token.isCancelled { usleep(100) }
                return true
            }
        }
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
}
