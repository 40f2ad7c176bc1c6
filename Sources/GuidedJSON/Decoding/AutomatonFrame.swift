import JSONModel

/// One open value on the automaton's stack. A plain value type so that the token-mask walk can
/// copy whole stacks with a memory copy.
struct AutomatonFrame: Sendable, Hashable {
    /// Index into `JSONAutomaton.nodes`.
    var node: Int32
    /// Where in the value we are; meanings per node kind in `AutomatonFrame.Phase`.
    var phase: UInt8 = Phase.start
    /// integer/number: the value is negative. string: the first `\u` hex digit was `d`/`D`.
    /// pattern string: the byte length of the UTF-8 character being read.
    var flag: UInt8 = 0
    var utf8 = UTF8Validator()
    /// string and pattern string: characters so far; array: items so far; object: index of the
    /// next property; integer/number: digits so far.
    var count: Int32 = 0
    /// literal/object key: node in the literal trie; number: fraction digits (-1 before `.`);
    /// pattern string: the pattern automaton's state.
    var cursor: Int32 = 0
    /// integer/number: the digits so far as an unsigned integer. pattern string: the bits of the
    /// UTF-8 character read so far.
    var digits: UInt64 = 0

    init(node: Int32) {
        self.node = node
    }

    enum Phase {
        static let start: UInt8 = 0
        // string
        static let content: UInt8 = 1
        static let escape: UInt8 = 2
        static let hex1: UInt8 = 3  // hex2...hex4 follow
        // integer and number
        static let afterMinus: UInt8 = 1
        static let zero: UInt8 = 2
        static let integerDigits: UInt8 = 3
        static let afterDot: UInt8 = 4
        static let fractionDigits: UInt8 = 5
        // array
        static let afterOpen: UInt8 = 1
        static let inItem: UInt8 = 2
        static let afterItem: UInt8 = 3
        static let afterComma: UInt8 = 4
        // object (afterOpen and afterComma shared with arrays)
        static let inKey: UInt8 = 2
        static let beforeValue: UInt8 = 3
        static let inValue: UInt8 = 5
        static let afterValue: UInt8 = 6
        // literal
        static let inLiteral: UInt8 = 1
    }
}
