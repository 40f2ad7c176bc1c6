/// A set of Unicode scalar values as sorted, disjoint, non-adjacent closed ranges.
struct ScalarSet: Sendable, Hashable {
    private(set) var ranges: [ClosedRange<UInt32>]

    init(_ ranges: [ClosedRange<UInt32>] = []) {
        self.ranges = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = self.ranges.last, range.lowerBound <= last.upperBound &+ 1 {
                self.ranges[self.ranges.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                self.ranges.append(range)
            }
        }
    }

    static func scalar(_ value: UInt32) -> ScalarSet { ScalarSet([value...value]) }

    /// Every scalar a guided string can contain: raw characters from U+0020 up (no surrogates), and
    /// the control characters JSON's short escapes write (\b \t \n \f \r).
    static let producible = ScalarSet([0x08...0x0A, 0x0C...0x0D, 0x20...0xD7FF, 0xE000...0x10FFFF])

    var isEmpty: Bool { ranges.isEmpty }

    func union(_ other: ScalarSet) -> ScalarSet { ScalarSet(ranges + other.ranges) }

    func intersection(_ other: ScalarSet) -> ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var i = 0
        var j = 0
        while i < ranges.count, j < other.ranges.count {
            let low = max(ranges[i].lowerBound, other.ranges[j].lowerBound)
            let high = min(ranges[i].upperBound, other.ranges[j].upperBound)
            if low <= high { result.append(low...high) }
            if ranges[i].upperBound < other.ranges[j].upperBound { i += 1 } else { j += 1 }
        }
        return ScalarSet(result)
    }

    /// The producible scalars not in this set.
    var complement: ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = range.upperBound &+ 1
            if range.upperBound == .max { break }
        }
        if next <= 0x10FFFF { result.append(next...0x10FFFF) }
        return ScalarSet(result).intersection(.producible)
    }

    func contains(_ value: UInt32) -> Bool {
        ranges.contains { $0.contains(value) }
    }
}
