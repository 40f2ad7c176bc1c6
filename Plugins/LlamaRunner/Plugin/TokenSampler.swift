import Foundation

/// Draws the next token from logits under a `SamplingPlan`. Masked tokens (guided decoding sets
/// them to -infinity) are never chosen.
///
/// The chain: logits / temperature → keep the top k → softmax → keep the smallest prefix whose
/// mass reaches top p → renormalise → one uniform draw. `choose` looks only at the few hundred
/// best candidates when they hold the top-p mass (almost always); `referenceChoose` sorts the
/// whole vocabulary. Both compute the same numbers in the same order, so for the same draw they
/// pick the same token; the tests hold them to it.
struct TokenSampler {
    let plan: SamplingPlan
    private var generator: SplitMix64
    /// Candidates kept by the fast path before it falls back to a full sort.
    static let candidateWindow = 256

    init(plan: SamplingPlan) {
        self.plan = plan
        generator = SplitMix64(seed: plan.seed)
    }

    /// A uniform draw in [0, 1) with 53 random bits.
    mutating func nextUniform() -> Double { Double(generator.next() >> 11) * 0x1p-53 }

    mutating func choose(_ logits: UnsafeBufferPointer<Float>) -> Int32 {
        if plan.greedy { return Self.argmax(logits) }
        let u = nextUniform()
        return Self.choose(logits, plan: plan, uniform: u, window: Self.candidateWindow)
    }

    static func argmax(_ logits: UnsafeBufferPointer<Float>) -> Int32 {
        var best = 0
        var bestValue = -Float.infinity
        for i in 0..<logits.count where logits[i] > bestValue {
            best = i
            bestValue = logits[i]
        }
        return Int32(best)
    }

    /// The optimised path: partial selection of the best `window` candidates.
    static func choose(_ logits: UnsafeBufferPointer<Float>, plan: SamplingPlan, uniform: Double, window: Int) -> Int32 {
        let width = plan.topK.map { min($0, window) } ?? window
        if let k = plan.topK, k > window { return referenceChoose(logits, plan: plan, uniform: uniform) }
        let best = topCandidates(logits, count: width)
        guard !best.isEmpty else { return argmax(logits) }
        let scale = 1 / Double(plan.temperature)
        let maxLogit = Double(best[0].1)
        let total: Double
        if plan.topK != nil {
            total = best.reduce(0) { $0 + exp((Double($1.1) - maxLogit) * scale) }
        } else {
            total = fullMass(logits, maxLogit: maxLogit, scale: scale)
            // The kept prefix must lie inside the window, else sort everything.
            let windowMass = best.reduce(0) { $0 + exp((Double($1.1) - maxLogit) * scale) } / total
            if windowMass < Double(plan.topP ?? 1), best.count < finiteCount(logits) {
                return referenceChoose(logits, plan: plan, uniform: uniform)
            }
        }
        return draw(best, maxLogit: maxLogit, scale: scale, total: total, topP: plan.topP, uniform: uniform)
    }

    /// The plain reference: sort every finite candidate.
    static func referenceChoose(_ logits: UnsafeBufferPointer<Float>, plan: SamplingPlan, uniform: Double) -> Int32 {
        var all: [(Int32, Float)] = []
        for i in 0..<logits.count where logits[i] > -Float.infinity { all.append((Int32(i), logits[i])) }
        guard !all.isEmpty else { return argmax(logits) }
        all.sort { $0.1 > $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
        let scale = 1 / Double(plan.temperature)
        let maxLogit = Double(all[0].1)
        if let k = plan.topK { all = Array(all.prefix(k)) }
        let total = plan.topK != nil
            ? all.reduce(0) { $0 + exp((Double($1.1) - maxLogit) * scale) }
            : fullMass(logits, maxLogit: maxLogit, scale: scale)
        return draw(all, maxLogit: maxLogit, scale: scale, total: total, topP: plan.topP, uniform: uniform)
    }

    /// Σ exp((l - max) · scale) over the whole vocabulary, in index order.
    private static func fullMass(_ logits: UnsafeBufferPointer<Float>, maxLogit: Double, scale: Double) -> Double {
        var sum = 0.0
        for v in logits where v > -Float.infinity { sum += exp((Double(v) - maxLogit) * scale) }
        return sum
    }

    private static func finiteCount(_ logits: UnsafeBufferPointer<Float>) -> Int {
        var n = 0
        for v in logits where v > -Float.infinity { n += 1 }
        return n
    }

    /// Cuts `sorted` at top p, renormalises, and picks by `uniform`.
    private static func draw(_ sorted: [(Int32, Float)], maxLogit: Double, scale: Double, total: Double, topP: Float?, uniform: Double) -> Int32 {
        var probabilities: [Double] = []
        probabilities.reserveCapacity(sorted.count)
        var kept = 0.0
        for candidate in sorted {
            let p = exp((Double(candidate.1) - maxLogit) * scale) / total
            probabilities.append(p)
            kept += p
            if let topP, kept >= Double(topP) { break }
        }
        var target = uniform * kept
        for (index, p) in probabilities.enumerated() {
            target -= p
            if target < 0 { return sorted[index].0 }
        }
        return sorted[probabilities.count - 1].0
    }

    /// The `count` largest finite logits, largest first (ties: lower id first).
    static func topCandidates(_ logits: UnsafeBufferPointer<Float>, count: Int) -> [(Int32, Float)] {
        guard count > 0 else { return [] }
        // A min-heap of the best so far; most logits lose against its root in one comparison.
        var heap: [(Int32, Float)] = []
        heap.reserveCapacity(count)
        func worse(_ a: (Int32, Float), _ b: (Int32, Float)) -> Bool { a.1 < b.1 || (a.1 == b.1 && a.0 > b.0) }
        for i in 0..<logits.count {
            let v = logits[i]
            guard v > -Float.infinity else { continue }
            let item = (Int32(i), v)
            if heap.count < count {
                heap.append(item)
                var child = heap.count - 1
                while child > 0 {
                    let parent = (child - 1) / 2
                    guard worse(heap[child], heap[parent]) else { break }
                    heap.swapAt(child, parent)
                    child = parent
                }
            } else if worse(heap[0], item) {
                heap[0] = item
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var smallest = parent
                    if left < heap.count, worse(heap[left], heap[smallest]) { smallest = left }
                    if right < heap.count, worse(heap[right], heap[smallest]) { smallest = right }
                    if smallest == parent { break }
                    heap.swapAt(parent, smallest)
                    parent = smallest
                }
            }
        }
        return heap.sorted { worse($1, $0) }
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64): the same seed gives
/// the same draws on every machine.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
