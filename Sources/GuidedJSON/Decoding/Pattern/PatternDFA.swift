import JSONModel

/// A string `pattern` with its length bounds compiled to a deterministic automaton over Unicode
/// scalars, pruned so that from every state it keeps, some completion is accepted within the
/// length bounds: guided decoding never walks into a dead end.
/// Built once per pattern string, then appended to the automaton's `PatternTables`, which the
/// decoding hot path reads.
struct PatternDFA: Sendable {
    /// Exact completion lengths are tracked up to this many characters; a pattern string's
    /// minLength and maxLength must not exceed it.
    static let lengthHorizon = 256
    /// The draft shape (QuoteLibrary's `DraftShape`: up to 19 words, each with up to three inner
    /// joins) needs more than 256; the construction-step bound below, not this, is what stops a
    /// hostile pattern.
    static let maximumStates = 1024
    private static let maximumNFAStates = 20_000
    /// Bounds the subset construction's work, so a hostile pattern fails fast instead of hanging.
    private static let maximumConstructionSteps = 20_000_000
    private static let lengthWords = lengthHorizon / 64 + 1

    /// The start state is 0.
    let stateCount: Int
    let accepting: [Bool]
    /// State s's transitions: rangeLows/rangeHighs/targets[transitionStarts[s]..<transitionStarts[s+1]],
    /// only into states from which the string can still be completed.
    let transitionStarts: [Int32]
    let rangeLows: [UInt32]
    let rangeHighs: [UInt32]
    let targets: [Int32]
    /// Whether state s with c characters written can still be completed within the length
    /// bounds, at s * (lengthHorizon + 2) + min(c, lengthHorizon + 1): beyond the horizon the
    /// answer no longer changes.
    let feasibleTable: [Bool]

    init(pattern: String, minimumLength: Int, maximumLength: Int?, at path: JSONPath) throws {
        guard minimumLength <= Self.lengthHorizon, (maximumLength ?? 0) <= Self.lengthHorizon else {
            throw GuidedJSONError(.unsupportedGuide, "a pattern string's length bounds must not exceed \(Self.lengthHorizon) for local decoding", path: path)
        }
        let syntax = try PatternSyntax.parse(pattern, at: path)

        // Thompson construction.
        var epsilon: [[Int]] = [[]]
        var edges: [[(ScalarSet, Int)]] = [[]]
        func newState() throws -> Int {
            guard epsilon.count < Self.maximumNFAStates else {
                throw GuidedJSONError(.unsupportedGuide, "pattern is too large to enforce during local decoding", path: path)
            }
            epsilon.append([])
            edges.append([])
            return epsilon.count - 1
        }
        func build(_ node: PatternSyntax, from start: Int) throws -> Int {
            switch node {
            case .scalars(let set):
                let end = try newState()
                if !set.isEmpty { edges[start].append((set, end)) }
                return end
            case .sequence(let items):
                var current = start
                for item in items { current = try build(item, from: current) }
                return current
            case .alternatives(let branches):
                let end = try newState()
                for branch in branches { epsilon[try build(branch, from: start)].append(end) }
                return end
            case .repetition(let inner, let minimum, let maximum):
                var current = start
                for _ in 0..<minimum { current = try build(inner, from: current) }
                if let maximum {
                    let end = try newState()
                    epsilon[current].append(end)
                    for _ in minimum..<maximum {
                        current = try build(inner, from: current)
                        epsilon[current].append(end)
                    }
                    return end
                }
                let loop = try newState()
                epsilon[current].append(loop)
                epsilon[try build(inner, from: loop)].append(loop)
                return loop
            }
        }
        let nfaEnd = try build(syntax, from: 0)

        // Subset construction over the classes of scalars no edge set splits.
        var boundaries = Set<UInt32>()
        for stateEdges in edges {
            for (set, _) in stateEdges {
                for range in set.ranges {
                    boundaries.insert(range.lowerBound)
                    if range.upperBound < 0x10FFFF { boundaries.insert(range.upperBound + 1) }
                }
            }
        }
        let points = boundaries.sorted()
        func closure(_ seeds: [Int]) -> [Int] {
            var seen = Set(seeds)
            var stack = seeds
            while let state = stack.popLast() {
                for next in epsilon[state] where seen.insert(next).inserted { stack.append(next) }
            }
            return seen.sorted()
        }
        var subsets: [[Int]] = [closure([0])]
        var index: [[Int]: Int] = [subsets[0]: 0]
        var dfaTransitions: [[(ClosedRange<UInt32>, Int)]] = []
        var next = 0
        var steps = 0
        while next < subsets.count {
            var transitions: [(ClosedRange<UInt32>, Int)] = []
            for (position, low) in points.enumerated() {
                let high = position + 1 < points.count ? points[position + 1] - 1 : 0x10FFFF
                var seeds: [Int] = []
                steps += subsets[next].count
                guard steps <= Self.maximumConstructionSteps else {
                    throw GuidedJSONError(.unsupportedGuide, "pattern is too complex to enforce during local decoding", path: path)
                }
                for state in subsets[next] {
                    for (set, target) in edges[state] where set.contains(low) { seeds.append(target) }
                }
                guard !seeds.isEmpty else { continue }
                let subset = closure(seeds)
                let target: Int
                if let known = index[subset] {
                    target = known
                } else {
                    guard subsets.count < Self.maximumStates else {
                        throw GuidedJSONError(.unsupportedGuide, "pattern needs more than \(Self.maximumStates) automaton states to enforce during local decoding", path: path)
                    }
                    target = subsets.count
                    subsets.append(subset)
                    index[subset] = target
                }
                if let last = transitions.last, last.1 == target, last.0.upperBound + 1 == low {
                    transitions[transitions.count - 1].0 = last.0.lowerBound...high
                } else {
                    transitions.append((low...high, target))
                }
            }
            dfaTransitions.append(transitions)
            next += 1
        }
        let count = subsets.count
        let isAccepting = subsets.map { $0.contains(nfaEnd) }

        // Completion lengths: bit ℓ of state s says an accepting state is exactly ℓ away.
        var lengths = [UInt64](repeating: 0, count: count * Self.lengthWords)
        for state in 0..<count where isAccepting[state] { lengths[state * Self.lengthWords] |= 1 }
        if Self.lengthHorizon > 0 {
            for length in 1...Self.lengthHorizon {
                for state in 0..<count {
                    let reached = dfaTransitions[state].contains { _, target in
                        lengths[target * Self.lengthWords + (length - 1) / 64] & (1 << UInt64((length - 1) % 64)) != 0
                    }
                    if reached { lengths[state * Self.lengthWords + length / 64] |= 1 << UInt64(length % 64) }
                }
            }
        }
        // Beyond the horizon: only through a cycle (states ≤ horizon), of states that can accept.
        let canAccept = (0..<count).map { state in (0..<Self.lengthWords).contains { lengths[state * Self.lengthWords + $0] != 0 } }
        func reachable(from state: Int) -> Set<Int> {
            var seen = Set<Int>()
            var stack = dfaTransitions[state].map(\.1)
            while let next = stack.popLast() {
                if seen.insert(next).inserted { stack += dfaTransitions[next].map(\.1) }
            }
            return seen
        }
        let reach = (0..<count).map(reachable(from:))
        let cyclic = (0..<count).map { canAccept[$0] && reach[$0].contains($0) }
        let beyond = (0..<count).map { state in cyclic[state] || reach[state].contains { cyclic[$0] } }

        // Keep only transitions into states that can still accept.
        var starts: [Int32] = [0]
        var lows: [UInt32] = []
        var highs: [UInt32] = []
        var targetStates: [Int32] = []
        for state in 0..<count {
            for (range, target) in dfaTransitions[state] where canAccept[target] {
                lows.append(range.lowerBound)
                highs.append(range.upperBound)
                targetStates.append(Int32(target))
            }
            starts.append(Int32(lows.count))
        }
        stateCount = count
        accepting = isAccepting
        transitionStarts = starts
        rangeLows = lows
        rangeHighs = highs
        targets = targetStates
        var table: [Bool] = []
        for state in 0..<count {
            for characters in 0...(Self.lengthHorizon + 1) {
                table.append(Self.computeFeasible(
                    state: state, characters: characters, minimumLength: minimumLength, maximumLength: maximumLength,
                    lengths: lengths, beyond: beyond))
            }
        }
        feasibleTable = table
        guard feasibleTable[0] else {
            throw GuidedJSONError(.invalidSchema, "no string matches pattern \(JSONValue.string(pattern).jsonText) within the length bounds", path: path)
        }
    }

    private static func computeFeasible(
        state: Int, characters: Int, minimumLength: Int, maximumLength: Int?, lengths: [UInt64], beyond: [Bool]
    ) -> Bool {
        if let maximumLength, characters > maximumLength { return false }
        let lowest = max(0, minimumLength - characters)
        let highest = maximumLength.map { $0 - characters } ?? lengthHorizon
        let base = state * lengthWords
        if lowest <= highest {
            for length in lowest...min(highest, lengthHorizon) where lengths[base + length / 64] & (1 << UInt64(length % 64)) != 0 {
                return true
            }
        }
        return maximumLength == nil && beyond[state]
    }
}
