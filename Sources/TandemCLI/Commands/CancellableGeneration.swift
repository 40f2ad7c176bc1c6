import Tandem

/// One generation that Ctrl-C and an optional deadline cancel through a `CancellationToken`.
/// A cancellation by the deadline is reported as `timeout`; after the generation, Ctrl-C is
/// the process's again (it exits).
enum CancellableGeneration {
    /// Runs `body`, which must stop when the token it is given is cancelled.
    static func run<T>(timeout: Double?, _ body: (CancellationToken) async throws -> T) async throws -> T {
        let token = CancellationToken()
        Interrupt.onInterrupt { token.cancel() }
        defer { Interrupt.onInterrupt(nil) }
        // It completes normally only when it fired.
        let deadline = timeout.map { seconds in
            Task {
                try await Task.sleep(for: .seconds(seconds))
                token.cancel()
            }
        }
        defer { deadline?.cancel() }
        do {
            return try await body(token)
        } catch let error as TandemError where error.code == .cancelled {
            deadline?.cancel()
            if let deadline, let timeout, (try? await deadline.value) != nil {
                throw TandemError(.timeout, "no answer within \(timeout) s", primary: error.primary, secondary: error.secondary)
            }
            throw error
        }
    }

    /// Runs a session call that stops on task cancellation (`respond`, guided output) in a task
    /// that `token` cancels.
    static func task<T: Sendable>(
        cancelledBy token: CancellationToken, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let task = Task { try await operation() }
        let waker = token.addWaker { task.cancel() }
        defer { if let waker { token.removeWaker(waker) } }
        return try await task.value
    }
}
