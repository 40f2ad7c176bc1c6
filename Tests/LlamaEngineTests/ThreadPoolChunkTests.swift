import Synchronization
import Testing
@testable import LlamaEngine

/// `runChunked` hands every row of every segment to exactly one participant, once, in chunks
/// that are whole granules except at a segment's end (the forward pass relies on both: a row
/// computed twice would race, one skipped would leave stale logits, and the packed kernels and
/// the feed-forward's quantisation need whole 16- and 32-row blocks).
@Suite struct ThreadPoolChunkTests {
    @Test(arguments: [1, 2, 3])
    func everyRowOfEverySegmentIsHandedOutOnce(threads: Int) {
        let pool = ThreadPool(threads: threads)
        for (counts, granule) in [([576, 192, 192], 16), ([1536], 32), ([0, 5, 0], 1), ([9], 1), ([49_152], 16), ([17, 3], 16)] {
            let total = counts.reduce(0, +)
            let seen = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: max(total, 1))
            for i in 0..<total { (seen + i).initialize(to: Atomic(0)) }
            let offsets = counts.indices.map { counts[..<$0].reduce(0, +) }
            let misaligned = Atomic<Int>(0), badIndex = Atomic<Int>(0)
            pool.runChunked(segments: counts.count, rows: { counts[$0] }, granule: granule) { segment, rows, index in
                if rows.lowerBound % granule != 0 || (rows.upperBound % granule != 0 && rows.upperBound != counts[segment]) {
                    misaligned.add(1, ordering: .relaxed)
                }
                if !(0..<threads).contains(index) { badIndex.add(1, ordering: .relaxed) }
                for r in rows { seen[offsets[segment] + r].add(1, ordering: .relaxed) }
            }
            let counted = (0..<total).map { seen[$0].load(ordering: .relaxed) }
            #expect(counted.allSatisfy { $0 == 1 }, "\(counts) granule \(granule): rows not handed out exactly once")
            #expect(misaligned.load(ordering: .relaxed) == 0, "\(counts) granule \(granule): a chunk is not whole granules")
            #expect(badIndex.load(ordering: .relaxed) == 0)
            seen.deallocate()
        }
    }
}
