/// Latencies of one measured path, in nanoseconds.
struct Samples {
    private(set) var values: [UInt64] = []

    mutating func add(_ value: UInt64) { values.append(value) }

    func percentile(_ p: Double) -> Double {
        let sorted = values.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))
        return Double(sorted[index]) / 1000  // µs
    }

    var p50: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }
}
