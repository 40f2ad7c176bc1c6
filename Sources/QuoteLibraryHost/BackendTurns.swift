import Tandem

/// One call at a time per backend that does not declare `concurrentCalls`, across the draft
/// writer, the judge and the agent. A budget that expires returns at once while the cancelled
/// plugin call is still unwinding; without turns, the next attempt would reach the busy plugin
/// and fail with `concurrentRequests`. A caller cancelled while waiting stops waiting.
actor BackendTurns {
    static let shared = BackendTurns()

    private var busy: Set<ObjectIdentifier> = []
    private var waiting: [(id: Int, keys: Set<ObjectIdentifier>, continuation: CheckedContinuation<Void, Error>)] = []
    private var nextID = 0

    /// The backends of `model` that must not overlap calls.
    static func keys(of model: HybridModel) -> Set<ObjectIdentifier> {
        keys(of: [model.primary] + (model.secondary.map { [$0] } ?? []))
    }

    static func keys(of models: [LanguageModel]) -> Set<ObjectIdentifier> {
        Set(models.filter { !$0.info.capabilities.contains(.concurrentCalls) }.map { ObjectIdentifier($0.backend) })
    }

    /// Runs `body` once none of `keys` is in use by another caller.
    func withTurn<T: Sendable>(_ keys: Set<ObjectIdentifier>, _ body: @Sendable () async throws -> T) async throws -> T {
        try await acquire(keys)
        defer { release(keys) }
        return try await body()
    }

    private func acquire(_ keys: Set<ObjectIdentifier>) async throws {
        if busy.isDisjoint(with: keys) {
            busy.formUnion(keys)
            return
        }
        nextID += 1
        let id = nextID
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiting.append((id, keys, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private func cancelWaiter(_ id: Int) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: CancellationError())
    }

    private func release(_ keys: Set<ObjectIdentifier>) {
        busy.subtract(keys)
        // Wake waiters in arrival order whose backends are all free now.
        var index = 0
        while index < waiting.count {
            if busy.isDisjoint(with: waiting[index].keys) {
                let waiter = waiting.remove(at: index)
                busy.formUnion(waiter.keys)
                waiter.continuation.resume()
            } else {
                index += 1
            }
        }
    }
}
