/// Finds special tokens written literally in text, as llama.cpp's partition step does: special
/// tokens are tried longest first, each one cutting every occurrence out of the text pieces left
/// by the longer ones. Control and unknown tokens are recognised only when asked
/// (`parseSpecial`) and never where they would overlap a `plainText` range (message content in
/// a rendered chat prompt); user-defined tokens always are.
///
/// One pass over the text with a byte trie of all special texts first finds where each special
/// token occurs, so vocabularies with thousands of special tokens cost one scan, and the
/// longest-first partition only visits those positions.
struct SpecialTokenSplitter: Sendable {
    enum Fragment: Equatable, Sendable {
        case text(Range<Int>)
        case token(Int32)
    }

    private struct Special: Sendable {
        var id: Int32
        var length: Int
        var alwaysRecognised: Bool
    }

    /// Longest first; equal lengths by id so the order is deterministic.
    private let specials: [Special]
    /// Trie edges keyed by (node << 8 | byte); node 0 is the root.
    private let edges: [UInt64: Int32]
    /// Per trie node: index into `specials` of the token ending there, or -1.
    private let terminal: [Int32]
    private let isFirstByte: [Bool]

    init(tokens: [String], types: [TokenType]) {
        var found: [(id: Int32, text: [UInt8], alwaysRecognised: Bool)] = []
        for (index, type) in types.enumerated() where type == .control || type == .userDefined || type == .unknown {
            let text = Array(tokens[index].utf8)
            guard !text.isEmpty else { continue }
            found.append((Int32(index), text, type == .userDefined))
        }
        found.sort { $0.text.count != $1.text.count ? $0.text.count > $1.text.count : $0.id < $1.id }
        var edges: [UInt64: Int32] = [:]
        var terminal: [Int32] = [-1]
        var firstBytes = [Bool](repeating: false, count: 256)
        for (index, special) in found.enumerated() {
            firstBytes[Int(special.text[0])] = true
            var node: Int32 = 0
            for byte in special.text {
                let key = UInt64(node) << 8 | UInt64(byte)
                if let child = edges[key] {
                    node = child
                } else {
                    terminal.append(-1)
                    node = Int32(terminal.count - 1)
                    edges[key] = node
                }
            }
            // A text listed twice keeps its first (earliest-tried) token, the only one llama.cpp can match.
            if terminal[Int(node)] < 0 { terminal[Int(node)] = Int32(index) }
        }
        specials = found.map { Special(id: $0.id, length: $0.text.count, alwaysRecognised: $0.alwaysRecognised) }
        self.edges = edges
        self.terminal = terminal
        isFirstByte = firstBytes
    }

    /// - Parameter plainText: sorted, disjoint byte ranges of `text` where control and unknown
    ///   tokens are not recognised, as if `parseSpecial` were off there.
    func split(_ text: UnsafeBufferPointer<UInt8>, parseSpecial: Bool, plainText: [Range<Int>] = []) -> [Fragment] {
        guard !text.isEmpty else { return [] }
        var fragments: [Fragment] = [.text(0..<text.count)]
        // Every start position of every special token (occurrences may overlap).
        var occurrences: [Int: [Int]] = [:]
        for start in 0..<text.count where isFirstByte[Int(text[start])] {
            var node: Int32 = 0
            var position = start
            while position < text.count, let child = edges[UInt64(node) << 8 | UInt64(text[position])] {
                node = child
                position += 1
                let index = terminal[Int(node)]
                if index >= 0 { occurrences[Int(index), default: []].append(start) }
            }
        }
        for index in occurrences.keys.sorted() {
            let special = specials[index]
            guard parseSpecial || special.alwaysRecognised else { continue }
            var starts = occurrences[index]!
            if !special.alwaysRecognised && !plainText.isEmpty {
                starts.removeAll { Self.overlaps($0..<($0 + special.length), plainText) }
            }
            var next: [Fragment] = []
            var changed = false
            for fragment in fragments {
                guard case .text(let range) = fragment, range.count >= special.length else {
                    next.append(fragment)
                    continue
                }
                var searchStart = range.lowerBound
                var candidate = Self.firstIndex(in: starts, atLeast: searchStart)
                while candidate < starts.count, starts[candidate] + special.length <= range.upperBound {
                    let position = starts[candidate]
                    candidate += 1
                    guard position >= searchStart else { continue }  // overlaps the previous match
                    if position > searchStart { next.append(.text(searchStart..<position)) }
                    next.append(.token(special.id))
                    searchStart = position + special.length
                    changed = true
                }
                if searchStart < range.upperBound { next.append(.text(searchStart..<range.upperBound)) }
            }
            if changed { fragments = next }
        }
        return fragments
    }

    /// Whether `range` shares a byte with any of the sorted, disjoint `ranges`.
    private static func overlaps(_ range: Range<Int>, _ ranges: [Range<Int>]) -> Bool {
        // The first range ending after `range` starts is the only one that can overlap it.
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound <= range.lowerBound { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].lowerBound < range.upperBound
    }

    /// Index of the first element of the sorted `values` that is at least `bound`.
    private static func firstIndex(in values: [Int], atLeast bound: Int) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < bound { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
