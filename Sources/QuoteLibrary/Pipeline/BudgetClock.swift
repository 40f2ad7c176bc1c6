/// The time source of budgets and stage timings. Instants are durations since the clock's own
/// origin, so a test can substitute a clock it advances by hand (no test waits for real time).
public protocol BudgetClock: Sendable {
    /// Time since this clock's origin.
    var now: Duration { get }
    /// Returns once `now` has reached `instant`; throws `CancellationError` when the task is cancelled first.
    func sleep(until instant: Duration) async throws
}

/// Real time: `ContinuousClock` (monotonic, keeps counting while the machine sleeps).
public struct ContinuousBudgetClock: BudgetClock {
    private let origin = ContinuousClock.now

    public init() {}

    public var now: Duration { ContinuousClock.now - origin }

    public func sleep(until instant: Duration) async throws {
        try await Task.sleep(until: origin + instant, clock: .continuous)
    }
}

extension Duration {
    /// Whole milliseconds, rounded down (the unit of run records).
    var wholeMilliseconds: Int {
        Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
