import Foundation

/// One text's own tokens (the embedder's start and end markers and prefix left out) and the
/// encoder's state of each, before pooling: what `Embedder.tokenStates` gives. `ids[i]` is the
/// vocabulary id of the token whose state is `states[i]`.
public struct TokenStates: Sendable, Equatable {
    public let ids: [Int32]
    public let states: [[Float]]

    public init(ids: [Int32], states: [[Float]]) {
        precondition(ids.count == states.count, "one state per token")
        (self.ids, self.states) = (ids, states)
    }
}

/// How well what two lines do not share still means the same, token by token (BERTScore-style,
/// Sources/QuoteLibrary/README.md, "Novelty"): each token of one line that the other line lacks
/// (by id) is matched to its most similar unshared token of the other line; the F1 of the two
/// directions' matches, each token weighted by its inverse document frequency. A line on the same
/// topic keeps the frame and swaps the content, so its unshared tokens do not align; a paraphrase
/// swaps the words and keeps the content, so they do.
///
/// The states are centred first (they share a large common direction that makes every pair look
/// alike) by the mean content-token state of the tuning lines, and unit-normalised. The centre and
/// the document frequencies are fitted per embedding model with the paraphrase decision that reads
/// this feature (`scripts/novelty-token-alignment.py --write`).
public struct TokenAlignment: Sendable, Equatable {
    public let centre: [Float]
    /// How many tuning lines the document frequencies were counted over.
    public let lines: Int
    /// In how many of them each token id occurs (an id not listed: none).
    let linesWith: [Int32: Int]

    public init(centre: [Float], lines: Int, tokenIDs: [Int32], linesWith counts: [Int32]) {
        precondition(tokenIDs.count == counts.count, "one count per token id")
        (self.centre, self.lines) = (centre, lines)
        linesWith = Dictionary(uniqueKeysWithValues: zip(tokenIDs, counts.map(Int.init)))
    }

    /// log((lines + 1) / (lines with the token + 1)): a rare content token counts more than an
    /// inflection or a particle; a token no tuning line had counts most.
    public func weight(_ id: Int32) -> Double {
        log(Double(lines + 1) / Double(linesWith[id, default: 0] + 1))
    }

    /// The IDF-weighted F1 of the unshared tokens' best matches, in −1...1; 1 when either line has
    /// no token the other lacks (nothing differs to align). States of another width than the centre
    /// are a caller's error.
    public func unsharedAlignment(_ a: TokenStates, _ b: TokenStates) -> Double {
        unsharedAlignment(a, b, dot: FloatDot.dot)
    }

    /// `dot` is `FloatDot.dot`, or its plain reference in the test that compares the two.
    func unsharedAlignment(_ a: TokenStates, _ b: TokenStates,
                           dot: (UnsafePointer<Float>, UnsafePointer<Float>, Int) -> Float) -> Double {
        let idsOfA = Set(a.ids), idsOfB = Set(b.ids)
        let onlyA = a.ids.indices.filter { !idsOfB.contains(a.ids[$0]) }
        let onlyB = b.ids.indices.filter { !idsOfA.contains(b.ids[$0]) }
        guard !onlyA.isEmpty, !onlyB.isEmpty else { return 1 }
        let width = centre.count
        let rowsA = centred(onlyA.map { a.states[$0] }), rowsB = centred(onlyB.map { b.states[$0] })
        var bestOfA = [Double](repeating: -.infinity, count: onlyA.count)
        var bestOfB = [Double](repeating: -.infinity, count: onlyB.count)
        rowsA.withUnsafeBufferPointer { u in
            rowsB.withUnsafeBufferPointer { v in
                for i in onlyA.indices {
                    for j in onlyB.indices {
                        let similarity = Double(dot(u.baseAddress! + i * width, v.baseAddress! + j * width, width))
                        bestOfA[i] = max(bestOfA[i], similarity)
                        bestOfB[j] = max(bestOfB[j], similarity)
                    }
                }
            }
        }
        let recall = Self.average(bestOfA, weights: onlyA.map { weight(a.ids[$0]) })
        let precision = Self.average(bestOfB, weights: onlyB.map { weight(b.ids[$0]) })
        return recall + precision == 0 ? 0 : 2 * recall * precision / (recall + precision)
    }

    /// Each state minus the centre, unit length (zero stays zero), one after another in one array.
    private func centred(_ states: [[Float]]) -> [Float] {
        var rows = [Float]()
        rows.reserveCapacity(states.count * centre.count)
        for state in states {
            precondition(state.count == centre.count, "a token state of \(state.count) dimensions, the centre has \(centre.count)")
            let start = rows.count
            var norm: Float = 0
            for k in 0..<centre.count {
                let shifted = state[k] - centre[k]
                rows.append(shifted)
                norm += shifted * shifted
            }
            norm = norm.squareRoot()
            if norm > 0 { for k in start..<rows.count { rows[k] /= norm } }
        }
        return rows
    }

    /// The weighted mean; the plain mean when every weight is 0.
    private static func average(_ values: [Double], weights: [Double]) -> Double {
        let total = weights.reduce(0, +)
        guard total > 0 else { return values.reduce(0, +) / Double(values.count) }
        return zip(values, weights).reduce(0) { $0 + $1.0 * $1.1 } / total
    }
}
