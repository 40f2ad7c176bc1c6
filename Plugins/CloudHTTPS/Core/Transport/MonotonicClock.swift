import Glibc

/// Milliseconds on the monotonic clock: deadlines and timeouts never jump with the wall clock.
public enum MonotonicClock {
    public static func nowMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}

/// Milliseconds since the Unix epoch: for a time another process reads (the cooldown file),
/// where the monotonic clock's origin means nothing.
public enum WallClock {
    public static func nowMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
