/// Byte tries for the fixed texts the automaton must spell out: enum strings, `true`, `false`,
/// `null`, and property keys (`"name":`). All tries of one automaton share these flat tables.
struct LiteralTries: Sendable {
    struct Node: Sendable {
        var firstEdge: Int32 = 0
        var edgeCount: Int32 = 0
        /// The literal that ends here (an index chosen by the caller), or -1.
        var terminal: Int32 = -1
    }

    private(set) var nodes: [Node] = []
    private(set) var edgeBytes: [UInt8] = []
    private(set) var edgeTargets: [Int32] = []

    /// Adds a trie holding `literals` (each with its terminal value) and returns its root, or nil
    /// (adding nothing) when one literal equals or starts another: reaching a terminal must end
    /// the literal.
    mutating func add(_ literals: [(bytes: [UInt8], terminal: Int32)]) -> Int32? {
        // Build a nested form first, then lay it out with each node's edges contiguous.
        final class Builder {
            var children: [(UInt8, Builder)] = []
            var terminal: Int32 = -1
        }
        let root = Builder()
        for (bytes, terminal) in literals {
            var node = root
            for byte in bytes {
                guard node.terminal < 0 else { return nil }
                if let next = node.children.first(where: { $0.0 == byte })?.1 {
                    node = next
                } else {
                    let next = Builder()
                    node.children.append((byte, next))
                    node = next
                }
            }
            guard node.terminal < 0, node.children.isEmpty else { return nil }
            node.terminal = terminal
        }
        func layout(_ builder: Builder) -> Int32 {
            let index = Int32(nodes.count)
            nodes.append(Node(terminal: builder.terminal))
            let first = edgeBytes.count
            for (byte, _) in builder.children {
                edgeBytes.append(byte)
                edgeTargets.append(-1)
            }
            nodes[Int(index)].firstEdge = Int32(first)
            nodes[Int(index)].edgeCount = Int32(builder.children.count)
            for (offset, child) in builder.children.enumerated() {
                edgeTargets[first + offset] = layout(child.1)
            }
            return index
        }
        return layout(root)
    }

    @inline(__always)
    func next(_ node: Int32, _ byte: UInt8) -> Int32? {
        let entry = nodes[Int(node)]
        var edge = Int(entry.firstEdge)
        let end = edge + Int(entry.edgeCount)
        while edge < end {
            if edgeBytes[edge] == byte { return edgeTargets[edge] }
            edge += 1
        }
        return nil
    }

    @inline(__always)
    func terminal(_ node: Int32) -> Int32 { nodes[Int(node)].terminal }
}
