import Foundation

/// Runs `body` on a thread of its own after `delay`. Tests that block their own thread (a
/// hanging plugin call) must not rely on a shared pool to unblock them: on a busy two-core
/// machine its threads may all be blocked too.
func onOwnThread(after delay: Duration = .zero, _ body: @escaping @Sendable () -> Void) {
    Thread.detachNewThread {
        if delay > .zero { Thread.sleep(forTimeInterval: delay / .seconds(1)) }
        body()
    }
}
