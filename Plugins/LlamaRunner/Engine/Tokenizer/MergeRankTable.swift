/// BPE merges keyed by the pair of symbol ids they join: rank (priority, lower first) and the id
/// of the joined symbol. Open addressing over packed 64-bit keys: one probe in the common case.
struct MergeRankTable: Sendable {
    struct Merge: Sendable {
        var rank: Int32
        var result: Int32
    }

    private static let emptyKey = UInt64.max
    private var keys: [UInt64]
    private var merges: [Merge]
    private var mask: Int

    init(minimumCapacity: Int) {
        var size = 16
        while size < minimumCapacity * 2 { size <<= 1 }
        keys = [UInt64](repeating: Self.emptyKey, count: size)
        merges = [Merge](repeating: Merge(rank: 0, result: 0), count: size)
        mask = size - 1
    }

    @inline(__always)
    private static func key(_ left: Int32, _ right: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: left)) << 32 | UInt64(UInt32(bitPattern: right))
    }

    @inline(__always)
    private func slot(for key: UInt64) -> Int {
        var mixed = key &* 0x9E37_79B9_7F4A_7C15
        mixed ^= mixed >> 32
        return Int(truncatingIfNeeded: mixed) & mask
    }

    /// Adds a merge unless the pair already has one: the first (highest priority) listing wins,
    /// as in llama.cpp.
    mutating func insertIfAbsent(left: Int32, right: Int32, merge: Merge) {
        let key = Self.key(left, right)
        var index = slot(for: key)
        while keys[index] != Self.emptyKey {
            if keys[index] == key { return }
            index = (index + 1) & mask
        }
        keys[index] = key
        merges[index] = merge
    }

    @inline(__always)
    func merge(_ left: Int32, _ right: Int32) -> Merge? {
        let key = Self.key(left, right)
        var index = slot(for: key)
        while true {
            let stored = keys[index]
            if stored == key { return merges[index] }
            if stored == Self.emptyKey { return nil }
            index = (index + 1) & mask
        }
    }
}
