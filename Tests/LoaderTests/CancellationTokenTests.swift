import Dispatch
import Glibc
import Synchronization
import Tandem
import Testing

@Suite struct CancellationTokenTests {
    @Test func wakersRunOnceAndLateOnesRunAtOnce() {
        let token = CancellationToken()
        let calls = Mutex(0)
        let key = token.addWaker { calls.withLock { $0 += 1 } }
        #expect(key != nil)
        token.cancel()
        token.cancel()
        #expect(calls.withLock { $0 } == 1)
        #expect(token.addWaker { calls.withLock { $0 += 10 } } == nil)
        #expect(calls.withLock { $0 } == 11)
    }

    @Test func aRemovedWakerNeverRuns() {
        let token = CancellationToken()
        let ran = Atomic(false)
        let key = token.addWaker { ran.store(true, ordering: .relaxed) }!
        token.removeWaker(key)
        token.cancel()
        let didRun = ran.load(ordering: .relaxed)
        #expect(!didRun)
    }

    /// A plugin frees its waker's context right after unregistering: the waker must be done.
    @Test func removingARunningWakerWaitsForItToReturn() {
        let token = CancellationToken()
        let inside = DispatchSemaphore(value: 0)
        let finished = Atomic(false)
        let key = token.addWaker {
            inside.signal()
            usleep(50_000)
            finished.store(true, ordering: .sequentiallyConsistent)
        }!
        DispatchQueue.global().async { token.cancel() }
        inside.wait()
        token.removeWaker(key)
        let wakerReturned = finished.load(ordering: .sequentiallyConsistent)
        #expect(wakerReturned)
    }
}
