/// Every pattern string of one automaton, as flat tables with global state numbers, so that the
/// per-byte step reads plain arrays (no per-pattern objects to retain).
struct PatternTables: Sendable {
    private static let columns = PatternDFA.lengthHorizon + 2

    private var accepting: [Bool] = []
    private var feasible: [Bool] = []
    /// The next state for each ASCII scalar (or -1), 128 per state: most tokens are ASCII.
    private var asciiTargets: [Int32] = []
    private var transitionStarts: [Int32] = [0]
    private var rangeLows: [UInt32] = []
    private var rangeHighs: [UInt32] = []
    private var targets: [Int32] = []
    /// Two words per state: the printable ASCII string characters (not quote or backslash) that
    /// lead back to the same state. Bit 0 is never set (see `TokenTrie.subtreeBytes`).
    private(set) var selfLoops: [UInt64] = []

    /// Adds a pattern and returns its start state.
    mutating func add(_ dfa: PatternDFA) -> Int32 {
        let offset = Int32(accepting.count)
        accepting += dfa.accepting
        feasible += dfa.feasibleTable
        for state in 0..<dfa.stateCount {
            let transitions = Int(dfa.transitionStarts[state])..<Int(dfa.transitionStarts[state + 1])
            var loops: (UInt64, UInt64) = (0, 0)
            for scalar in UInt32(0)..<128 {
                let transition = transitions.first { dfa.rangeLows[$0] <= scalar && scalar <= dfa.rangeHighs[$0] }
                asciiTargets.append(transition.map { dfa.targets[$0] + offset } ?? -1)
                let isPlain = scalar >= 0x20 && scalar != 0x22 && scalar != 0x5C
                if isPlain, let transition, dfa.targets[transition] == Int32(state) {
                    if scalar < 64 { loops.0 |= 1 << UInt64(scalar) } else { loops.1 |= 1 << UInt64(scalar - 64) }
                }
            }
            selfLoops += [loops.0, loops.1]
            for transition in transitions {
                rangeLows.append(dfa.rangeLows[transition])
                rangeHighs.append(dfa.rangeHighs[transition])
                targets.append(dfa.targets[transition] + offset)
            }
            transitionStarts.append(Int32(rangeLows.count))
        }
        return offset
    }

    @inline(__always)
    func isAccepting(_ state: Int32) -> Bool { accepting[Int(state)] }

    /// Whether `state` with `characters` written can still be completed within the length bounds.
    @inline(__always)
    func isFeasible(_ state: Int32, afterCharacters characters: Int) -> Bool {
        feasible[Int(state) * Self.columns + min(characters, Self.columns - 1)]
    }

    /// The state after `scalar`, if that keeps a completion within bounds.
    @inline(__always)
    func next(_ state: Int32, _ scalar: UInt32, afterCharacters characters: Int) -> Int32? {
        let target: Int32
        if scalar < 128 {
            target = asciiTargets[Int(state) << 7 | Int(scalar)]
        } else {
            var found: Int32 = -1
            for transition in Int(transitionStarts[Int(state)])..<Int(transitionStarts[Int(state) + 1])
            where rangeLows[transition] <= scalar && scalar <= rangeHighs[transition] {
                found = targets[transition]
                break
            }
            target = found
        }
        return target >= 0 && isFeasible(target, afterCharacters: characters + 1) ? target : nil
    }

    /// Whether some scalar in `low...high` may come next.
    func allowsSome(_ state: Int32, _ low: UInt32, _ high: UInt32, afterCharacters characters: Int) -> Bool {
        for transition in Int(transitionStarts[Int(state)])..<Int(transitionStarts[Int(state) + 1])
        where rangeLows[transition] <= high && low <= rangeHighs[transition] {
            if isFeasible(targets[transition], afterCharacters: characters + 1) { return true }
        }
        return false
    }

    /// Whether `string` is accepted whole from `start` (for checking enum values against a pattern).
    func matches(_ string: String, from start: Int32) -> Bool {
        var state = start
        for (position, scalar) in string.unicodeScalars.enumerated() {
            guard let next = next(state, scalar.value, afterCharacters: position) else { return false }
            state = next
        }
        return isAccepting(state) && isFeasible(state, afterCharacters: string.unicodeScalars.count)
    }
}
