import Glibc

/// Milliseconds on the monotonic clock: deadlines and timeouts never jump with the wall clock.
public enum MonotonicClock {
    public static func nowMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}

/// The total time budget of one call: every attempt, retry wait and read must end before it.
public struct Deadline: Sendable {
    public let endMilliseconds: Int64

    public init(afterMilliseconds duration: Int64) {
        endMilliseconds = MonotonicClock.nowMilliseconds() + duration
    }

    public var remainingMilliseconds: Int64 { max(0, endMilliseconds - MonotonicClock.nowMilliseconds()) }
    public var hasPassed: Bool { remainingMilliseconds == 0 }
}
