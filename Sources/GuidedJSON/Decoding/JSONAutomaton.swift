import JSONModel

/// A schema compiled into a pushdown automaton over UTF-8 bytes: given the bytes generated so far
/// (its state), it says which bytes may come next so that the document can still be completed
/// into one that parses and validates. The local runner masks tokens with it (`TokenVocabulary`).
///
/// The language it accepts is a canonical subset of the schema's JSON documents, chosen so every
/// constraint is decided byte by byte:
/// - no insignificant whitespace;
/// - object properties in declaration order; an optional property may be skipped, a required one
///   never; no other properties;
/// - strings: length bounds (Unicode scalars, an escape counts as one), enums spelled exactly as
///   `JSONValue.jsonText` writes them; escapes allowed except `\u` surrogates;
/// - integers: no sign on zero, no leading zeros, every digit checked against the range;
/// - numbers: no exponent, at most `maximumSignificantDigits` digits, range checked digit by digit;
/// - arrays: item counts enforced at `,` and `]`;
/// - anyOf: alternatives must differ in their first byte (`"` vs digit vs `{` ...), objects in
///   their first property (key, or key and single-choice value);
/// - patterns: the subset `PatternSyntax` accepts, compiled to a scalar automaton (`PatternDFA`);
///   pattern strings use raw characters and the short escapes, not `\u`.
/// What it cannot enforce (other regular-expression features, anyOf alternatives it cannot tell
/// apart) is rejected at compile time with `.unsupportedGuide` and the schema path, never dropped.
public struct JSONAutomaton: Sendable {
    /// Numbers (not integers) carry at most this many digits, so their values are exact doubles.
    public static let maximumSignificantDigits = 15

    struct Node: Sendable {
        enum Kind: UInt8, Sendable { case string, patternString, literal, integer, number, array, object, objectUnion, anyOf }
        var kind: Kind
        /// string and patternString: minLength; integer: minimum; array: minItems; objectUnion: 1
        /// if `{}` is allowed.
        var low: Int64 = 0
        /// string: maxLength (Int64.max when unbounded); integer: maximum; array: maxItems.
        var high: Int64 = .max
        /// number bounds.
        var lower: Double = -.infinity
        var upper: Double = .infinity
        /// array: item node; literal and objectUnion: trie root; object: index into `objects`;
        /// patternString: its start state in `patterns`;
        /// anyOf: offset into `dispatch`.
        var target: Int32 = 0
    }

    struct ObjectLayout: Sendable {
        var valueNodes: [Int32]
        /// keyTries[i]: the keys that may come next when properties before i are settled (the
        /// optional ones up to the next required one), or -1 when none may.
        var keyTries: [Int32]
        /// mayClose[i]: no required property at index ≥ i.
        var mayClose: [Bool]
    }

    private(set) var nodes: [Node] = []
    private(set) var objects: [ObjectLayout] = []
    private(set) var dispatch: [Int32] = []
    private(set) var patterns = PatternTables()
    /// Where the first key of an object union leads: terminals of its trie index this.
    private(set) var unionTargets: [UnionTarget] = []

    struct UnionTarget: Sendable {
        var objectNode: Int32
        var property: Int32
        /// The literal included the property's (single-choice) value too.
        var valueIncluded: Bool
    }
    private(set) var literals = LiteralTries()
    private var rootNode: Int32 = 0
    /// The deepest stack of open values a document can need.
    public private(set) var maximumStackHeight = 1

    /// Compiles `schema`. Throws `.unsupportedGuide` (with the schema path) for what cannot be
    /// enforced byte by byte, or whatever `schema.check()` throws.
    public init(schema: GenerationSchema) throws {
        try schema.check()
        rootNode = try compile(schema, at: .root, height: 1)
    }

    private mutating func add(_ node: Node) -> Int32 {
        nodes.append(node)
        return Int32(nodes.count - 1)
    }

    private mutating func compile(_ schema: GenerationSchema, at path: JSONPath, height: Int) throws -> Int32 {
        maximumStackHeight = max(maximumStackHeight, height)
        switch schema.kind {
        case .string(let guides):
            let pattern = try guides.pattern.map {
                try PatternDFA(pattern: $0, minimumLength: guides.minLength ?? 0, maximumLength: guides.maxLength, at: path.appending(key: "pattern"))
            }
            let patternStart = pattern.map { patterns.add($0) }
            if let choices = guides.choices {
                if let patternStart, let mismatch = choices.first(where: { !patterns.matches($0, from: patternStart) }) {
                    throw GuidedJSONError(.invalidSchema, "enum value \(JSONValue.string(mismatch).jsonText) does not match the pattern", path: path.appending(key: "enum"))
                }
                return literalNode(choices.map { Array(JSONValue.string($0).jsonText.utf8) })
            }
            if let patternStart {
                return add(Node(kind: .patternString, low: Int64(guides.minLength ?? 0), target: patternStart))
            }
            return add(Node(kind: .string, low: Int64(guides.minLength ?? 0), high: guides.maxLength.map(Int64.init) ?? .max))
        case .integer(let minimum, let maximum):
            return add(Node(kind: .integer, low: minimum ?? .min, high: maximum ?? .max))
        case .number(let minimum, let maximum):
            return add(Node(kind: .number, lower: minimum ?? -.infinity, upper: maximum ?? .infinity))
        case .boolean:
            return literalNode([Array("true".utf8), Array("false".utf8)])
        case .null:
            return literalNode([Array("null".utf8)])
        case .array(let items, let minItems, let maxItems):
            let index = add(Node(kind: .array, low: Int64(minItems ?? 0), high: maxItems.map(Int64.init) ?? .max))
            let item = try compile(items, at: path.appending(key: "items"), height: height + 1)
            nodes[Int(index)].target = item
            return index
        case .object(let properties):
            let index = add(Node(kind: .object, target: Int32(objects.count)))
            objects.append(ObjectLayout(valueNodes: [], keyTries: [], mayClose: []))
            var valueNodes: [Int32] = []
            for property in properties {
                valueNodes.append(try compile(property.schema, at: path.appending(key: "properties").appending(key: property.name), height: height + 1))
            }
            var keyTries: [Int32] = []
            var mayClose: [Bool] = []
            for start in 0...properties.count {
                var candidates: [(bytes: [UInt8], terminal: Int32)] = []
                for position in start..<properties.count {
                    candidates.append((Array((JSONValue.string(properties[position].name).jsonText + ":").utf8), Int32(position)))
                    if properties[position].isRequired { break }
                }
                // Keys are distinct and each ends with `":`, so none starts another.
                keyTries.append(candidates.isEmpty ? -1 : literals.add(candidates)!)
                mayClose.append(!properties[start...].contains(where: \.isRequired))
            }
            objects[Int(nodes[Int(index)].target)] = ObjectLayout(valueNodes: valueNodes, keyTries: keyTries, mayClose: mayClose)
            return index
        case .anyOf(let alternatives):
            var compiled: [(node: Int32, position: Int)] = []
            for (position, alternative) in alternatives.enumerated() {
                compiled.append((try compile(alternative, at: path.appending(key: "anyOf").appending(index: position), height: height), position))
            }
            let objectAlternatives = compiled.filter { nodes[Int($0.node)].kind == .object }
            if objectAlternatives.count > 1 {
                let union = try objectUnion(objectAlternatives.map { alternatives[$0.position] }, objectAlternatives.map(\.node), at: path)
                compiled = compiled.filter { nodes[Int($0.node)].kind != .object } + [(union, objectAlternatives[0].position)]
            }
            var table = [Int32](repeating: -1, count: 256)
            var owner = [Int](repeating: -1, count: 256)
            for (node, position) in compiled {
                for byte in firstBytes(of: node) {
                    guard table[Int(byte)] == -1 else {
                        throw GuidedJSONError(
                            .unsupportedGuide,
                            "anyOf alternatives \(owner[Int(byte)]) and \(position) can both start with \(JSONValue.string(String(Unicode.Scalar(byte))).jsonText); local decoding needs alternatives that differ in their first character (objects: in their first property)",
                            path: path.appending(key: "anyOf"))
                    }
                    table[Int(byte)] = node
                    owner[Int(byte)] = position
                }
            }
            let offset = Int32(dispatch.count)
            dispatch += table
            return add(Node(kind: .anyOf, target: offset))
        }
    }

    /// Object alternatives of one anyOf, told apart by their first property: its key, plus its
    /// value when that is a single-choice string (`{"name":"get_weather","arguments":...}`).
    private mutating func objectUnion(_ schemas: [GenerationSchema], _ objectNodes: [Int32], at path: JSONPath) throws -> Int32 {
        var candidates: [(bytes: [UInt8], terminal: Int32)] = []
        var mayBeEmpty = false
        for (schema, objectNode) in zip(schemas, objectNodes) {
            guard case .object(let properties) = schema.kind else { continue }
            for (position, property) in properties.enumerated() {
                var literal = Array((JSONValue.string(property.name).jsonText + ":").utf8)
                var valueIncluded = false
                if case .string(let guides) = property.schema.kind, let choices = guides.choices, choices.count == 1 {
                    literal += Array(JSONValue.string(choices[0]).jsonText.utf8)
                    valueIncluded = true
                }
                candidates.append((literal, Int32(unionTargets.count)))
                unionTargets.append(UnionTarget(objectNode: objectNode, property: Int32(position), valueIncluded: valueIncluded))
                if property.isRequired { break }
            }
            mayBeEmpty = mayBeEmpty || !properties.contains(where: \.isRequired)
        }
        guard let root = literals.add(candidates) else {
            throw GuidedJSONError(
                .unsupportedGuide,
                "anyOf object alternatives must differ in their first property (its name, or its value when that is a single-choice string)",
                path: path.appending(key: "anyOf"))
        }
        return add(Node(kind: .objectUnion, low: mayBeEmpty ? 1 : 0, target: root))
    }

    private mutating func literalNode(_ texts: [[UInt8]]) -> Int32 {
        // Quoted strings and the three keywords never start one another.
        let root = literals.add(texts.enumerated().map { ($1, Int32($0)) })!
        return add(Node(kind: .literal, target: root))
    }

    /// The bytes a value of `node` can start with.
    private func firstBytes(of node: Int32) -> [UInt8] {
        let entry = nodes[Int(node)]
        let digits = Array(UInt8(ascii: "0")...UInt8(ascii: "9"))
        switch entry.kind {
        case .string, .patternString: return [UInt8(ascii: "\"")]
        case .literal: return (0...255).map(UInt8.init).filter { literals.next(entry.target, $0) != nil }
        case .integer: return entry.low < 0 ? digits + [UInt8(ascii: "-")] : digits
        case .number: return entry.lower < 0 ? digits + [UInt8(ascii: "-")] : digits
        case .array: return [UInt8(ascii: "[")]
        case .object, .objectUnion: return [UInt8(ascii: "{")]
        case .anyOf: return (0...255).map(UInt8.init).filter { dispatch[Int(entry.target) + Int($0)] != -1 }
        }
    }

    // MARK: Public use of states

    /// The state before any byte.
    public var initialState: JSONAutomatonState {
        JSONAutomatonState(root: rootNode, capacity: maximumStackHeight)
    }

    /// Consumes `byte` if it may come next; otherwise returns false and leaves `state` unchanged.
    public func advance(_ state: inout JSONAutomatonState, byte: UInt8) -> Bool {
        advance(&state, bytes: CollectionOfOne(byte))
    }

    /// Consumes all of `bytes` if they may come next; otherwise returns false and leaves `state`
    /// unchanged.
    public func advance(_ state: inout JSONAutomatonState, bytes: some Sequence<UInt8>) -> Bool {
        var copy = state
        var height = copy.height
        let accepted = copy.frames.withUnsafeMutableBufferPointer { frames in
            bytes.allSatisfy { step(frames.baseAddress!, &height, $0) }
        }
        guard accepted else { return false }
        copy.height = height
        state = copy
        return true
    }

    /// Whether the bytes so far form a complete document (generation may stop here).
    public func isComplete(_ state: JSONAutomatonState) -> Bool {
        state.frames.withUnsafeBufferPointer { canEnd($0.baseAddress!, state.height) }
    }

    /// Whether the document is complete and nothing may follow.
    public func isFinished(_ state: JSONAutomatonState) -> Bool {
        state.height == 0
    }

    /// Every byte that may come next (for diagnostics and tests; the mask uses the token trie).
    public func allowedBytes(_ state: JSONAutomatonState) -> [UInt8] {
        (0...255).map(UInt8.init).filter { byte in
            var copy = state
            return advance(&copy, byte: byte)
        }
    }
}
