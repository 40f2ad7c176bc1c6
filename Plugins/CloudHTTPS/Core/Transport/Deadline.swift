/// The total time budget of one call: every attempt, retry wait and read must end before it.
public struct Deadline: Sendable {
    public let endMilliseconds: Int64

    public init(afterMilliseconds duration: Int64) {
        endMilliseconds = MonotonicClock.nowMilliseconds() + duration
    }

    public var remainingMilliseconds: Int64 { max(0, endMilliseconds - MonotonicClock.nowMilliseconds()) }
    public var hasPassed: Bool { remainingMilliseconds == 0 }
}
