/// Finds special tokens written literally in text, as llama.cpp's partition step does: special
/// tokens are tried longest first, each one cutting every occurrence out of the text pieces left
/// by the longer ones. Control and unknown tokens are recognised only when asked
/// (`parseSpecial`); user-defined tokens always are.
struct SpecialTokenSplitter: Sendable {
    enum Fragment: Equatable, Sendable {
        case text(Range<Int>)
        case token(Int32)
    }

    private struct Special: Sendable {
        var id: Int32
        var text: [UInt8]
        var alwaysRecognised: Bool
    }

    private let specials: [Special]
    /// Bytes some special token starts with: searches visit only positions holding one.
    private let isFirstByte: [Bool]

    init(tokens: [String], types: [TokenType]) {
        var found: [Special] = []
        for (index, type) in types.enumerated() where type == .control || type == .userDefined || type == .unknown {
            let text = Array(tokens[index].utf8)
            guard !text.isEmpty else { continue }
            found.append(Special(id: Int32(index), text: text, alwaysRecognised: type == .userDefined))
        }
        // Longest first; equal lengths by id so the order is deterministic.
        specials = found.sorted { $0.text.count != $1.text.count ? $0.text.count > $1.text.count : $0.id < $1.id }
        var firstBytes = [Bool](repeating: false, count: 256)
        for special in found { firstBytes[Int(special.text[0])] = true }
        isFirstByte = firstBytes
    }

    func split(_ text: UnsafeBufferPointer<UInt8>, parseSpecial: Bool) -> [Fragment] {
        var fragments: [Fragment] = text.isEmpty ? [] : [.text(0..<text.count)]
        guard !text.isEmpty else { return fragments }
        var candidates: [Int] = []
        for position in 0..<text.count where isFirstByte[Int(text[position])] { candidates.append(position) }
        guard !candidates.isEmpty else { return fragments }
        for special in specials where parseSpecial || special.alwaysRecognised {
            var next: [Fragment] = []
            var changed = false
            special.text.withUnsafeBufferPointer { needle in
                for fragment in fragments {
                    guard case .text(let range) = fragment, range.count >= needle.count else {
                        next.append(fragment)
                        continue
                    }
                    var searchStart = range.lowerBound
                    while let position = Self.find(needle, in: text, from: searchStart, to: range.upperBound, candidates: candidates) {
                        if position > searchStart { next.append(.text(searchStart..<position)) }
                        next.append(.token(special.id))
                        searchStart = position + needle.count
                        changed = true
                    }
                    if searchStart < range.upperBound { next.append(.text(searchStart..<range.upperBound)) }
                }
            }
            if changed { fragments = next }
        }
        return fragments
    }

    /// First occurrence of `needle` inside `haystack[from..<to]`, trying only `candidates`
    /// (sorted positions whose byte starts some special token).
    private static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>,
                             from: Int, to: Int, candidates: [Int]) -> Int? {
        var low = 0
        var high = candidates.count
        while low < high {
            let middle = (low + high) / 2
            if candidates[middle] < from { low = middle + 1 } else { high = middle }
        }
        let last = to - needle.count
        var index = low
        while index < candidates.count {
            let position = candidates[index]
            if position > last { return nil }
            var offset = 0
            while offset < needle.count && haystack[position + offset] == needle[offset] { offset += 1 }
            if offset == needle.count { return position }
            index += 1
        }
        return nil
    }
}
