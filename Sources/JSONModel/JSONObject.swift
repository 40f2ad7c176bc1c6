/// A JSON object that keeps its members in document order (schemas rely on property order:
/// guided decoding writes properties in the order they were declared). Keys are unique.
///
/// Members are stored in order and found by a linear scan while the object is small (most are:
/// wire payloads and schemas hold a handful of members, where hashing every key costs more than
/// comparing it); a large object keeps a hash index beside them, so a hostile document with many
/// keys stays linear to parse.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Member = (key: String, value: JSONValue)

    private var members: [Member] = []
    /// Key → position in `members`, kept once the object outgrows a linear scan.
    private var index: [String: Int]?
    private static let indexedCount = 16

    public init() {}

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    /// Setting a new key appends it; setting an existing key keeps its position; nil removes it.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let position = position(of: key) {
                if let newValue {
                    members[position].value = newValue
                } else {
                    members.remove(at: position)
                    index = nil
                    if members.count > Self.indexedCount { rebuildIndex() }
                }
            } else if let newValue {
                append(key, newValue)
            }
        }
    }

    /// Appends a member unless its key is present (then nothing changes and the answer is
    /// false): one lookup where checking and then setting takes two, for parsers.
    mutating func appendNew(key: String, value: JSONValue) -> Bool {
        guard position(of: key) == nil else { return false }
        append(key, value)
        return true
    }

    /// A member whose key is known to be new.
    private mutating func append(_ key: String, _ value: JSONValue) {
        members.append((key, value))
        if index != nil {
            index![key] = members.count - 1
        } else if members.count > Self.indexedCount {
            rebuildIndex()
        }
    }

    private mutating func rebuildIndex() {
        var index: [String: Int] = [:]
        index.reserveCapacity(members.count)
        for (position, member) in members.enumerated() { index[member.key] = position }
        self.index = index
    }

    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    /// JSON semantics: member order does not matter for equality.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    /// Order-independent, as equality is: the members' hashes are summed.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.key)
            memberHasher.combine(member.value)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
