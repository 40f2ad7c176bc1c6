/// Where an automaton is in a document: the stack of values being written. Copy it freely (a
/// small value); advance it with `JSONAutomaton.advance`.
public struct JSONAutomatonState: Sendable, Hashable {
    var frames: [AutomatonFrame]
    var height: Int

    init(root: Int32, capacity: Int) {
        frames = Array(repeating: AutomatonFrame(node: 0), count: capacity)
        frames[0] = AutomatonFrame(node: root)
        height = 1
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.height == rhs.height && lhs.frames[..<lhs.height] == rhs.frames[..<rhs.height]
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(height)
        for frame in frames[..<height] { hasher.combine(frame) }
    }
}
