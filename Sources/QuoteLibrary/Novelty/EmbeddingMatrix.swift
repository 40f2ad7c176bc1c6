import Foundation
import Synchronization

/// Every stored vector of one embedding model, as one contiguous row-major matrix of unit rows, so
/// a candidate is compared with the whole library in one exact scan
/// (Sources/QuoteLibrary/README.md, "The pipeline", step 4). Cost: rows × dimensions multiply-adds;
/// at 384 dimensions 10k rows are 15 MB and 100k rows 150 MB of float32 (`make bench` prints the
/// measured scan times).
public struct EmbeddingMatrix: Sendable {
    public let model: String
    public let dimensions: Int
    public private(set) var ids: [Int64] = []
    /// `ids.count × dimensions` floats; row `r` starts at `r * dimensions`.
    public private(set) var values: [Float] = []

    public init(model: String, dimensions: Int) {
        precondition(dimensions > 0, "an embedding has at least one dimension")
        (self.model, self.dimensions) = (model, dimensions)
    }

    public var count: Int { ids.count }
    public var isEmpty: Bool { ids.isEmpty }

    /// Appends one row, scaled to unit length (a zero vector stays zero: similar to nothing).
    public mutating func append(id: Int64, vector: [Float]) {
        precondition(vector.count == dimensions, "a \(vector.count)-value vector in a \(dimensions)-dimension matrix")
        ids.append(id)
        values.append(contentsOf: Self.unit(vector))
    }

    /// Appends a stored blob of little-endian float32 values (`EmbeddingBlob`), scaled to unit length.
    mutating func append(id: Int64, blob: UnsafeRawBufferPointer) {
        precondition(blob.count == dimensions * 4, "a \(blob.count)-byte blob in a \(dimensions)-dimension matrix")
        let start = values.count
        EmbeddingBlob.append(blob, to: &values)
        var norm: Float = 0
        for index in start..<values.count { norm += values[index] * values[index] }
        norm = norm.squareRoot()
        for index in start..<values.count { values[index] = norm > 0 && norm.isFinite ? values[index] / norm : 0 }
        ids.append(id)
    }

    public struct Match: Sendable, Equatable {
        public let id: Int64
        public let similarity: Float
    }

    /// The most similar row by cosine similarity, or nil for an empty matrix.
    public func nearest(to vector: [Float]) -> Match? { nearest(to: vector, count: 1).first }

    /// The `count` most similar rows, most similar first (fewer when the matrix is smaller; of
    /// equal similarities, the earlier row first). Exact: every row is compared (`FloatDot`); a
    /// row enters a kept list only when it beats its last entry, so a small `count` costs the same
    /// scan. A large matrix is scanned in two halves at once (the scan reads the whole matrix from
    /// memory: 10k rows × 768 took 1.0 ms on one core, `make bench-novelty`), and the halves'
    /// lists merged, earlier half first among equals: the same answer.
    public func nearest(to vector: [Float], count: Int) -> [Match] {
        precondition(vector.count == dimensions, "a \(vector.count)-value query against \(dimensions) dimensions")
        guard !ids.isEmpty, count > 0 else { return [] }
        let query = Self.unit(vector)
        guard ids.count >= Self.rowsWorthTwoThreads else { return nearest(to: query, count: count, rows: 0..<ids.count) }
        let middle = ids.count / 2
        let halves = [0..<middle, middle..<ids.count]
        let found = Mutex<[[Match]]>([[], []])
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            let matches = nearest(to: query, count: count, rows: halves[half])
            found.withLock { $0[half] = matches }
        }
        let merged = found.withLock { $0[0] + $0[1] }
        return Array(merged.enumerated().sorted { ($0.element.similarity, -$0.offset) > ($1.element.similarity, -$1.offset) }
            .prefix(count).map(\.element))
    }

    /// Rows from which `nearest` scans on two threads.
    static let rowsWorthTwoThreads = 4096

    /// The scan of `rows` alone, for a unit `query`.
    func nearest(to query: [Float], count: Int, rows: Range<Int>) -> [Match] {
        var best: [Match] = []
        best.reserveCapacity(count + 1)
        var floor = -Float.infinity
        query.withUnsafeBufferPointer { q in
            values.withUnsafeBufferPointer { matrix in
                for row in rows {
                    let dot = FloatDot.dot(q.baseAddress!, matrix.baseAddress! + row * dimensions, count: dimensions)
                    guard best.count < count || dot > floor else { continue }
                    let match = Match(id: ids[row], similarity: dot)
                    let place = best.firstIndex { dot > $0.similarity } ?? best.count
                    best.insert(match, at: place)
                    if best.count > count { best.removeLast() }
                    if best.count == count { floor = best[count - 1].similarity }
                }
            }
        }
        return best
    }

    /// The same answer as `nearest`, one multiply-add at a time: the reference the scan is tested
    /// against.
    public func nearestByReference(to vector: [Float]) -> Match? {
        guard !ids.isEmpty else { return nil }
        let query = Self.unit(vector)
        var best = Match(id: ids[0], similarity: -.infinity)
        values.withUnsafeBufferPointer { matrix in
            for row in 0..<ids.count {
                let dot = FloatDot.dotByReference(query, matrix.baseAddress! + row * dimensions, count: dimensions)
                if dot > best.similarity { best = Match(id: ids[row], similarity: dot) }
            }
        }
        return best
    }

    static func unit(_ vector: [Float]) -> [Float] {
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard norm > 0, norm.isFinite else { return [Float](repeating: 0, count: vector.count) }
        return vector.map { $0 / norm }
    }
}
