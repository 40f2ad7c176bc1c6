import JSONModel

/// A model's vocabulary prepared for guided decoding: built once per model, then asked at every
/// step which tokens may come next (`computeMask`).
///
/// Tokens are given as their UTF-8 byte strings, indexed by id. A token with no bytes (control
/// and special tokens) is never allowed, except the end-of-generation tokens, which are allowed
/// exactly when the document is complete (and are never treated as text).
///
/// The mask is computed by walking a trie of all tokens with copies of the automaton state,
/// skipping a whole subtree as soon as its prefix is rejected. Inside a string, where nearly every
/// token is allowed, "plain" tokens (ordinary characters only: no quote, backslash, control byte
/// or split character) are added from precomputed bit sets by character count, and only the
/// other tokens are walked. `referenceMask` checks each token on its own; tests compare the two.
public struct TokenVocabulary: Sendable {
    public let tokens: [[UInt8]]
    public let endOfGenerationTokens: [Int]
    let fullTrie: TokenTrie
    /// Every token that is not plain.
    let specialTrie: TokenTrie
    /// plainUpTo[k]: the plain tokens of at most k characters (the last entry: all plain tokens).
    let plainUpTo: [[UInt64]]

    public var count: Int { tokens.count }

    /// Throws `.invalidVocabulary` when there is no end token or one is not a token id.
    public init(tokens: [[UInt8]], endOfGenerationTokens: [Int]) throws {
        guard !endOfGenerationTokens.isEmpty else {
            throw GuidedJSONError(.invalidVocabulary, "guided decoding needs at least one end-of-generation token")
        }
        if let bad = endOfGenerationTokens.first(where: { !tokens.indices.contains($0) }) {
            throw GuidedJSONError(.invalidVocabulary, "end-of-generation token \(bad) is not in the vocabulary of \(tokens.count) tokens")
        }
        self.tokens = tokens
        self.endOfGenerationTokens = endOfGenerationTokens
        let endings = Set(endOfGenerationTokens)
        let textTokens = tokens.enumerated().filter { !endings.contains($0.offset) && !$0.element.isEmpty }
        fullTrie = TokenTrie(textTokens.map { ($0.offset, $0.element) })
        var plainCounts: [(id: Int, characters: Int)] = []
        var special: [(id: Int, bytes: [UInt8])] = []
        for (id, bytes) in textTokens {
            if let characters = Self.plainCharacterCount(bytes) {
                plainCounts.append((id, characters))
            } else {
                special.append((id, bytes))
            }
        }
        specialTrie = TokenTrie(special)
        let longest = plainCounts.map(\.characters).max() ?? 0
        var sets = Array(repeating: TokenMask(tokenCount: tokens.count), count: longest + 1)
        for (id, characters) in plainCounts {
            for k in characters...longest { sets[k].insert(id) }
        }
        plainUpTo = sets.map(\.words)
    }

    /// The number of characters of a token made only of ordinary string characters and whole
    /// UTF-8 sequences, or nil.
    static func plainCharacterCount(_ bytes: [UInt8]) -> Int? {
        var validator = UTF8Validator()
        var characters = 0
        for byte in bytes {
            if validator.isAtBoundary {
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return nil }
                characters += 1
            }
            if validator.accept(byte) == .invalid { return nil }
        }
        return validator.isAtBoundary ? characters : nil
    }

    /// The tokens that may come next in `state`. Allocates a mask; prefer `computeMask(_:state:into:)`
    /// in a decoding loop.
    public func mask(_ automaton: JSONAutomaton, state: JSONAutomatonState) -> TokenMask {
        var mask = TokenMask(tokenCount: count)
        computeMask(automaton, state: state, into: &mask)
        return mask
    }

    /// Overwrites `mask` with the tokens that may come next in `state`.
    public func computeMask(_ automaton: JSONAutomaton, state: JSONAutomatonState, into mask: inout TokenMask) {
        precondition(mask.tokenCount == count, "mask was made for a different vocabulary")
        mask.clear()
        if automaton.isComplete(state) {
            for token in endOfGenerationTokens { mask.insert(token) }
        }
        if state.height == 0 { return }
        let top = state.frames[state.height - 1]
        let node = automaton.nodes[Int(top.node)]
        if node.kind == .string, top.phase == AutomatonFrame.Phase.content, top.utf8.isAtBoundary {
            let remaining = node.high == .max ? Int.max : Int(node.high - Int64(top.count))
            let plain = plainUpTo[min(remaining, plainUpTo.count - 1)]
            mask.words.withUnsafeMutableBufferPointer { words in
                for index in words.indices { words[index] |= plain[index] }
            }
            walk(specialTrie, automaton, state, into: &mask)
        } else {
            walk(fullTrie, automaton, state, into: &mask)
        }
    }

    /// Walks `trie` depth-first keeping one automaton stack per depth; a rejected node skips its
    /// subtree. In a pattern string, a subtree made only of characters that loop on the current
    /// pattern state is settled without stepping: each of its tokens only adds characters, so it
    /// is allowed exactly when the pattern can still finish after that many (a state with a
    /// self-loop can always take one more, so a longer token being feasible implies its prefixes are).
    private func walk(_ trie: TokenTrie, _ automaton: JSONAutomaton, _ state: JSONAutomatonState, into mask: inout TokenMask) {
        let stackCapacity = automaton.maximumStackHeight
        let levels = trie.maximumDepth + 1
        let top = state.frames[state.height - 1]
        var loopState: Int32 = -1
        var loops: (UInt64, UInt64) = (0, 0)
        if automaton.nodes[Int(top.node)].kind == .patternString, top.phase == AutomatonFrame.Phase.content, top.utf8.isAtBoundary {
            loops = (automaton.patterns.selfLoops[2 * Int(top.cursor)], automaton.patterns.selfLoops[2 * Int(top.cursor) + 1])
            if loops != (0, 0) { loopState = top.cursor }
        }
        withUnsafeTemporaryAllocation(of: AutomatonFrame.self, capacity: stackCapacity * levels) { rows in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: levels) { heights in
                let rowBase = rows.baseAddress!
                state.frames.withUnsafeBufferPointer { frames in
                    _ = rows.initialize(fromContentsOf: frames)
                }
                // Rows beyond 0 are written before they are read; initialise them once for Swift's rules.
                for row in 1..<levels { (rowBase + row * stackCapacity).initialize(repeating: state.frames[0], count: stackCapacity) }
                heights[0] = state.height
                trie.bytes.withUnsafeBufferPointer { bytes in
                    trie.depths.withUnsafeBufferPointer { depths in
                        trie.subtreeEnds.withUnsafeBufferPointer { subtreeEnds in
                            trie.tokenStarts.withUnsafeBufferPointer { tokenStarts in
                                trie.tokenIDs.withUnsafeBufferPointer { tokenIDs in
                                    mask.words.withUnsafeMutableBufferPointer { words in
                                        var node = 0
                                        let end = bytes.count
                                        while node < end {
                                            let depth = Int(depths[node])
                                            let source = rowBase + (depth - 1) * stackCapacity
                                            let target = rowBase + depth * stackCapacity
                                            var height = heights[depth - 1]
                                            if loopState >= 0,
                                                trie.subtreeBytes[2 * node] & ~loops.0 == 0, trie.subtreeBytes[2 * node + 1] & ~loops.1 == 0
                                            {
                                                let parent = source[height - 1]
                                                if parent.node == top.node, parent.cursor == loopState,
                                                    parent.phase == AutomatonFrame.Phase.content, parent.utf8.isAtBoundary
                                                {
                                                    // Characters of the token ending at node j: parent's + depth[j] - (depth - 1).
                                                    let base = Int(parent.count) - (depth - 1)
                                                    let subtreeEnd = Int(subtreeEnds[node])
                                                    for inner in node..<subtreeEnd
                                                    where automaton.patterns.isFeasible(loopState, afterCharacters: base + Int(depths[inner])) {
                                                        for token in Int(tokenStarts[inner])..<Int(tokenStarts[inner + 1]) {
                                                            let id = Int(tokenIDs[token])
                                                            words[id >> 6] |= 1 << UInt64(id & 63)
                                                        }
                                                    }
                                                    node = subtreeEnd
                                                    continue
                                                }
                                            }
                                            target.update(from: source, count: height)
                                            if automaton.step(target, &height, bytes[node]) {
                                                heights[depth] = height
                                                var token = Int(tokenStarts[node])
                                                let last = Int(tokenStarts[node + 1])
                                                while token < last {
                                                    let id = Int(tokenIDs[token])
                                                    words[id >> 6] |= 1 << UInt64(id & 63)
                                                    token += 1
                                                }
                                                node += 1
                                            } else {
                                                node = Int(subtreeEnds[node])
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                rows.deinitialize()
            }
        }
    }

    /// The plain reference: each token checked on its own by feeding its bytes to a copy of the
    /// state. Slow; for tests against `computeMask`.
    public func referenceMask(_ automaton: JSONAutomaton, state: JSONAutomatonState) -> TokenMask {
        var mask = TokenMask(tokenCount: count)
        let endings = Set(endOfGenerationTokens)
        for (id, bytes) in tokens.enumerated() {
            if endings.contains(id) {
                if automaton.isComplete(state) { mask.insert(id) }
                continue
            }
            var copy = state
            if !bytes.isEmpty, automaton.advance(&copy, bytes: bytes) { mask.insert(id) }
        }
        return mask
    }
}
