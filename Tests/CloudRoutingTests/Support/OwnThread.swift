import Foundation

/// Runs blocking work (a child process, starting or stopping the mock) on a thread of its own
/// and awaits it, so it never holds one of the few threads of Swift's cooperative pool that
/// every other test in the process shares.
func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try work() })
        }
    }
}
