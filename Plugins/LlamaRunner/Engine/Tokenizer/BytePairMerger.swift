/// Applies BPE merges to one chunk's symbols: repeatedly joins the adjacent pair with the lowest
/// merge rank (the leftmost one on a tie), as llama.cpp's BPE session does.
///
/// The optimised loop keeps the symbols in a doubly linked list and the candidate pairs in a
/// binary min-heap keyed by (rank, left position), so a word of n symbols costs O(n log n)
/// instead of rescanning every pair after each merge. A candidate is checked when popped: it is
/// still valid when the pair now at that position has the same rank (ranks identify pairs).
/// Most chunks are a few bytes long, where the heap costs more than it saves: those run a
/// rescan that keeps each adjacent pair's merge cached, so one merge updates two entries.
/// `mergeReference` is the plain quadratic loop both are tested against.
struct BytePairMerger: Sendable {
    let table: MergeRankTable

    /// Chunks up to this many symbols use the cached rescan.
    static let shortChunkLimit = 24

    /// Reusable buffers, one per encode call.
    struct Scratch {
        var next: [Int32] = []
        var prev: [Int32] = []
        var heap = BinaryHeap<UInt64>()
        var pairs: [MergeRankTable.Merge] = []
    }

    /// Merges `symbols` in place (the result replaces the contents).
    func merge(_ symbols: inout [Int32], scratch: inout Scratch) {
        let count = symbols.count
        if count < 2 { return }
        if count <= Self.shortChunkLimit {
            mergeShort(&symbols, pairs: &scratch.pairs)
            return
        }
        scratch.next.removeAll(keepingCapacity: true)
        scratch.prev.removeAll(keepingCapacity: true)
        scratch.heap.removeAll()
        for index in 0..<count {
            scratch.next.append(index + 1 < count ? Int32(index + 1) : -1)
            scratch.prev.append(Int32(index - 1))
        }
        for index in 0..<(count - 1) {
            if let joined = table.merge(symbols[index], symbols[index + 1]) {
                scratch.heap.push(Self.candidate(rank: joined.rank, left: index))
            }
        }

        symbols.withUnsafeMutableBufferPointer { ids in
            scratch.next.withUnsafeMutableBufferPointer { next in
                scratch.prev.withUnsafeMutableBufferPointer { prev in
                    while let top = scratch.heap.pop() {
                        let rank = Int32(truncatingIfNeeded: top >> 32)
                        let left = Int(UInt32(truncatingIfNeeded: top))
                        let right = Int(next[left])
                        // A merged-away symbol has id -1; its stale candidates fail here too.
                        guard ids[left] >= 0, right >= 0,
                              let joined = table.merge(ids[left], ids[right]), joined.rank == rank
                        else { continue }
                        ids[left] = joined.result
                        ids[right] = -1
                        let after = next[right]
                        next[left] = after
                        if after >= 0 { prev[Int(after)] = Int32(left) }
                        let before = Int(prev[left])
                        if before >= 0, let pair = table.merge(ids[before], ids[left]) {
                            scratch.heap.push(Self.candidate(rank: pair.rank, left: before))
                        }
                        if after >= 0, let pair = table.merge(ids[left], ids[Int(after)]) {
                            scratch.heap.push(Self.candidate(rank: pair.rank, left: left))
                        }
                    }
                }
            }
        }
        var write = 0
        for read in 0..<count where symbols[read] >= 0 {
            symbols[write] = symbols[read]
            write += 1
        }
        symbols.removeLast(count - write)
    }

    private static let noMerge = MergeRankTable.Merge(rank: .max, result: -1)

    /// The rescan with cached pair merges: `pairs[i]` is the merge of symbols i and i + 1.
    private func mergeShort(_ symbols: inout [Int32], pairs: inout [MergeRankTable.Merge]) {
        var count = symbols.count
        if pairs.count < count { pairs = [MergeRankTable.Merge](repeating: Self.noMerge, count: max(count, Self.shortChunkLimit)) }
        symbols.withUnsafeMutableBufferPointer { ids in
            pairs.withUnsafeMutableBufferPointer { pairs in
                for index in 0..<(count - 1) {
                    pairs[index] = table.merge(ids[index], ids[index + 1]) ?? Self.noMerge
                }
                while count > 1 {
                    var best = 0
                    for index in 1..<(count - 1) where pairs[index].rank < pairs[best].rank { best = index }
                    guard pairs[best].rank != Self.noMerge.rank else { break }
                    ids[best] = pairs[best].result
                    // Close the gap left by symbol best + 1 and pair best.
                    var index = best + 1
                    while index < count - 1 {
                        ids[index] = ids[index + 1]
                        pairs[index - 1] = pairs[index]
                        index += 1
                    }
                    count -= 1
                    if best > 0 { pairs[best - 1] = table.merge(ids[best - 1], ids[best]) ?? Self.noMerge }
                    if best < count - 1 { pairs[best] = table.merge(ids[best], ids[best + 1]) ?? Self.noMerge }
                }
            }
        }
        symbols.removeLast(symbols.count - count)
    }

    /// The plain loop: find the lowest-rank adjacent pair (leftmost on a tie), join it, repeat.
    func mergeReference(_ symbols: [Int32]) -> [Int32] {
        var symbols = symbols
        while symbols.count > 1 {
            var best: (rank: Int32, index: Int, result: Int32)?
            for index in 0..<(symbols.count - 1) {
                if let joined = table.merge(symbols[index], symbols[index + 1]),
                   best == nil || joined.rank < best!.rank {
                    best = (joined.rank, index, joined.result)
                }
            }
            guard let best else { break }
            symbols[best.index] = best.result
            symbols.remove(at: best.index + 1)
        }
        return symbols
    }

    @inline(__always)
    private static func candidate(rank: Int32, left: Int) -> UInt64 {
        UInt64(UInt32(bitPattern: rank)) << 32 | UInt64(UInt32(left))
    }
}
