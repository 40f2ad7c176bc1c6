/// Waiting for models that are getting ready on their own. A model that answers `modelNotReady`
/// with progress (its file hashed against a pinned SHA-256, downloaded, loaded) will be available
/// soon; routing does not wait (availability is a snapshot, README "Routing: who answers"), so a
/// one-shot caller that starts, asks once and exits (the CLI's `respond`) would fail on every first
/// run. Such callers wait here first, bounded by their own deadline.
public enum ModelPreparation {
    /// One model's state while it is waited for.
    public struct Progress: Sendable {
        public var model: LanguageModel
        public var detail: String
        /// 0...1.
        public var fraction: Double
    }

    /// Blocks the task while any of `models` is `modelNotReady` with progress that moves, polling
    /// their cheap availability check (for `locale`) every `pollInterval`. A model whose
    /// progress has not moved for `stallLimit` (a download left behind) is no longer waited for,
    /// nor is one that reports anything else. `onProgress` sees each waited-for model's state on
    /// every poll. Returns at once when nothing is preparing; throws `cancelled` when
    /// `cancellation` fires or the task is cancelled first (a caller's deadline, Ctrl-C).
    /// `clock` measures the stall and the polls (tests pass one they advance by hand).
    public static func wait<C: Clock>(
        for models: [LanguageModel?], locale: String?, cancellation: CancellationToken,
        stallLimit: Duration = .seconds(3), pollInterval: Duration = .milliseconds(50),
        clock: C = ContinuousClock(), onProgress: (Progress) -> Void = { _ in }
    ) async throws(TandemError) where C.Duration == Duration {
        var seen: Set<ObjectIdentifier> = []
        let start = clock.now
        var waiting = models.compactMap { $0 }.filter { seen.insert(ObjectIdentifier($0)).inserted }
            .map { (model: $0, fraction: -1.0, movedAt: start) }
        func cancelled() -> TandemError {
            TandemError(.cancelled, "cancelled while waiting for \(waiting.map(\.model.id).joined(separator: ", ")) to get ready")
        }
        while true {
            if cancellation.isCancelled || Task.isCancelled { throw cancelled() }
            let now = clock.now
            waiting = waiting.compactMap { entry in
                guard case .unavailable(.modelNotReady, let detail, let fraction?) = entry.model.availability(for: locale)
                else { return nil }
                var entry = entry
                if fraction != entry.fraction { (entry.fraction, entry.movedAt) = (fraction, now) }
                guard entry.movedAt.duration(to: now) < stallLimit else { return nil }
                onProgress(Progress(model: entry.model, detail: detail, fraction: fraction))
                return entry
            }
            if waiting.isEmpty { return }
            do { try await clock.sleep(for: pollInterval) } catch { throw cancelled() }
        }
    }
}
