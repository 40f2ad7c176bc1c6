/// The vocabulary's tokens as a byte trie laid out in preorder: node i's subtree is
/// i..<subtreeEnd[i], so a walk that rejects node i jumps straight past every token below it.
struct TokenTrie: Sendable {
    private(set) var bytes: [UInt8] = []
    /// 1 for children of the (implicit) root.
    private(set) var depths: [UInt16] = []
    private(set) var subtreeEnds: [Int32] = []
    /// Tokens ending at node i: tokenIDs[tokenStarts[i]..<tokenStarts[i + 1]].
    private(set) var tokenStarts: [Int32] = []
    private(set) var tokenIDs: [Int32] = []
    private(set) var maximumDepth = 0
    /// Two words per node: bit b (b < 128) set when byte b occurs in the node's subtree (itself
    /// included); bit 0 stands for any byte that is not an ordinary printable ASCII string
    /// character (control, quote, backslash, non-ASCII). Lets a pattern walk accept a whole
    /// subtree of characters that all loop on the current pattern state.
    private(set) var subtreeBytes: [UInt64] = []

    var nodeCount: Int { bytes.count }

    /// `tokens` lists (id, bytes) pairs; empty byte strings are left out.
    init(_ tokens: [(id: Int, bytes: [UInt8])]) {
        let sorted = tokens.filter { !$0.bytes.isEmpty }.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        var path: [Int] = []  // node index at each depth of the current token
        var previous: [UInt8] = []
        var endings: [(node: Int, id: Int)] = []
        for (id, tokenBytes) in sorted {
            var shared = 0
            while shared < min(previous.count, tokenBytes.count), previous[shared] == tokenBytes[shared] { shared += 1 }
            while path.count > shared {
                subtreeEnds[path.removeLast()] = Int32(bytes.count)
            }
            for byte in tokenBytes[shared...] {
                path.append(bytes.count)
                bytes.append(byte)
                depths.append(UInt16(path.count))
                subtreeEnds.append(0)
            }
            endings.append((path.last!, id))
            maximumDepth = max(maximumDepth, tokenBytes.count)
            previous = tokenBytes
        }
        for node in path { subtreeEnds[node] = Int32(bytes.count) }
        // Endings arrive in node order (a token is added right after its last node is reached).
        tokenStarts = Array(repeating: 0, count: bytes.count + 1)
        var next = 0
        for node in 0...bytes.count {
            tokenStarts[node] = Int32(next)
            while next < endings.count, endings[next].node == node { next += 1 }
        }
        tokenIDs = endings.map { Int32($0.id) }

        subtreeBytes = Array(repeating: 0, count: 2 * bytes.count)
        for node in stride(from: bytes.count - 1, through: 0, by: -1) {
            let byte = bytes[node]
            let isPlainASCII = byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
            let bit = isPlainASCII ? Int(byte) : 0
            subtreeBytes[2 * node + bit / 64] |= 1 << UInt64(bit % 64)
            var child = node + 1
            while child < Int(subtreeEnds[node]) {
                subtreeBytes[2 * node] |= subtreeBytes[2 * child]
                subtreeBytes[2 * node + 1] |= subtreeBytes[2 * child + 1]
                child = Int(subtreeEnds[child])
            }
        }
    }
}
