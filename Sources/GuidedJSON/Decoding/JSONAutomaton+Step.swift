// The byte transition function. Everything here runs for every trie node the token mask visits,
// so it works on raw frame pointers and never allocates.

extension JSONAutomaton {
    private enum FrameStep {
        /// The byte belongs to this value, which continues.
        case consumed
        /// The byte ends this value.
        case finished
        /// This value ended before the byte (a number followed by `,`): pass the byte to the parent.
        case endedBefore
        /// The byte starts a child value of this node: push it and give it the byte.
        case push(Int32)
        case rejected
    }

    /// Advances the stack `frames[0..<height]` (room for `maximumStackHeight` frames) by `byte`.
    /// Returns false if the byte cannot come next; the frames are then in an unspecified state.
    @inline(__always)
    func step(_ frames: UnsafeMutablePointer<AutomatonFrame>, _ height: inout Int, _ byte: UInt8) -> Bool {
        while height > 0 {
            switch stepFrame(&frames[height - 1], byte) {
            case .consumed:
                return true
            case .finished:
                height -= 1
                if height > 0 { childFinished(&frames[height - 1]) }
                return true
            case .endedBefore:
                height -= 1
                guard height > 0 else { return false }
                childFinished(&frames[height - 1])
            case .push(let node):
                frames[height] = AutomatonFrame(node: node)
                height += 1
            case .rejected:
                return false
            }
        }
        return false
    }

    /// Whether the document may end with this stack: nothing open, or only a root number that
    /// is complete as written.
    func canEnd(_ frames: UnsafePointer<AutomatonFrame>, _ height: Int) -> Bool {
        if height == 0 { return true }
        guard height == 1 else { return false }
        let frame = frames[0]
        let node = nodes[Int(frame.node)]
        switch node.kind {
        case .integer: return integerCanEnd(frame, node)
        case .number: return numberCanEnd(frame, node)
        default: return false
        }
    }

    private func childFinished(_ parent: inout AutomatonFrame) {
        if nodes[Int(parent.node)].kind == .array {
            parent.count += 1
            parent.phase = AutomatonFrame.Phase.afterItem
        } else {
            parent.phase = AutomatonFrame.Phase.afterValue
        }
    }

    @inline(__always)
    private func stepFrame(_ frame: inout AutomatonFrame, _ byte: UInt8) -> FrameStep {
        let node = nodes[Int(frame.node)]
        switch node.kind {
        case .string: return stepString(&frame, node, byte)
        case .patternString: return stepPatternString(&frame, node, byte)
        case .literal: return stepLiteral(&frame, node, byte)
        case .integer: return stepInteger(&frame, node, byte)
        case .number: return stepNumber(&frame, node, byte)
        case .array: return stepArray(&frame, node, byte)
        case .object: return stepObject(&frame, node, byte)
        case .objectUnion: return stepObjectUnion(&frame, node, byte)
        case .anyOf:
            let alternative = dispatch[Int(node.target) + Int(byte)]
            guard alternative >= 0 else { return .rejected }
            frame = AutomatonFrame(node: alternative)
            return stepFrame(&frame, byte)
        }
    }

    // MARK: Strings

    @inline(__always)
    private func stepString(_ frame: inout AutomatonFrame, _ node: Node, _ byte: UInt8) -> FrameStep {
        typealias Phase = AutomatonFrame.Phase
        switch frame.phase {
        case Phase.content:
            if !frame.utf8.isAtBoundary {
                return frame.utf8.accept(byte) == .invalid ? .rejected : .consumed
            }
            if byte == UInt8(ascii: "\"") {
                return Int64(frame.count) >= node.low ? .finished : .rejected
            }
            guard byte >= 0x20, Int64(frame.count) < node.high else { return .rejected }
            if byte == UInt8(ascii: "\\") {
                frame.phase = Phase.escape
            } else if byte >= 0x80, frame.utf8.accept(byte) != .needsMore {
                return .rejected
            }
            frame.count += 1
            return .consumed
        case Phase.start:
            guard byte == UInt8(ascii: "\"") else { return .rejected }
            frame.phase = Phase.content
            return .consumed
        case Phase.escape:
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                frame.phase = Phase.content
            case UInt8(ascii: "u"):
                frame.phase = Phase.hex1
                frame.flag = 0
            default:
                return .rejected
            }
            return .consumed
        default:  // hex digits 1...4 of \uXXXX; D800-DFFF (surrogates) are excluded
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return .rejected
            }
            let position = frame.phase - Phase.hex1
            if position == 0 {
                frame.flag = digit == 0xD ? 1 : 0
            } else if position == 1, frame.flag == 1, digit >= 8 {
                return .rejected
            }
            frame.phase = position == 3 ? Phase.content : frame.phase + 1
            return .consumed
        }
    }

    // MARK: Pattern strings

    /// What \" \\ \/ \b \f \n \r \t stand for.
    private static let shortEscapeScalars: [UInt32] = [0x22, 0x5C, 0x2F, 0x08, 0x0C, 0x0A, 0x0D, 0x09]

    /// Characters are fed to the pattern's automaton as whole scalars; a byte that starts or
    /// continues a multi-byte character is allowed if some scalar it can still become is.
    private func stepPatternString(_ frame: inout AutomatonFrame, _ node: Node, _ byte: UInt8) -> FrameStep {
        typealias Phase = AutomatonFrame.Phase
        let characters = Int(frame.count)
        func take(_ scalar: UInt32) -> FrameStep {
            guard let next = patterns.next(frame.cursor, scalar, afterCharacters: characters) else { return .rejected }
            frame.cursor = next
            frame.count += 1
            frame.phase = Phase.content
            return .consumed
        }
        switch frame.phase {
        case Phase.start:
            guard byte == UInt8(ascii: "\"") else { return .rejected }
            frame.phase = Phase.content
            frame.cursor = node.target
            return .consumed
        case Phase.content:
            if !frame.utf8.isAtBoundary || byte >= 0x80 {
                let isLead = frame.utf8.isAtBoundary
                guard frame.utf8.accept(byte) != .invalid else { return .rejected }
                if isLead {
                    frame.flag = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                    frame.digits = UInt64(byte & (byte >= 0xF0 ? 0x07 : byte >= 0xE0 ? 0x0F : 0x1F))
                } else {
                    frame.digits = frame.digits << 6 | UInt64(byte & 0x3F)
                }
                if frame.utf8.isAtBoundary { return take(UInt32(frame.digits)) }
                // The scalars this partial character can still become.
                let shift = UInt64(6 * frame.utf8.pending)
                let smallest: UInt64 = frame.flag == 2 ? 0x80 : frame.flag == 3 ? 0x800 : 0x10000
                let low = max(frame.digits << shift, smallest)
                let high = min(frame.digits << shift | (1 << shift - 1), 0x10FFFF)
                return low <= high && patterns.allowsSome(frame.cursor, UInt32(low), UInt32(high), afterCharacters: characters) ? .consumed : .rejected
            }
            if byte == UInt8(ascii: "\"") {
                return patterns.isAccepting(frame.cursor) && characters >= node.low ? .finished : .rejected
            }
            if byte == UInt8(ascii: "\\") {
                guard Self.shortEscapeScalars.contains(where: { patterns.next(frame.cursor, $0, afterCharacters: characters) != nil }) else { return .rejected }
                frame.phase = Phase.escape
                return .consumed
            }
            guard byte >= 0x20 else { return .rejected }
            return take(UInt32(byte))
        case Phase.escape:
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return take(UInt32(byte))
            case UInt8(ascii: "b"): return take(0x08)
            case UInt8(ascii: "f"): return take(0x0C)
            case UInt8(ascii: "n"): return take(0x0A)
            case UInt8(ascii: "r"): return take(0x0D)
            case UInt8(ascii: "t"): return take(0x09)
            default: return .rejected
            }
        default:
            return .rejected
        }
    }

    // MARK: Literals (enum strings, true, false, null)

    @inline(__always)
    private func stepLiteral(_ frame: inout AutomatonFrame, _ node: Node, _ byte: UInt8) -> FrameStep {
        let from = frame.phase == AutomatonFrame.Phase.start ? node.target : frame.cursor
        guard let next = literals.next(from, byte) else { return .rejected }
        if literals.terminal(next) >= 0 { return .finished }
        frame.phase = AutomatonFrame.Phase.inLiteral
        frame.cursor = next
        return .consumed
    }

    // MARK: Integers

    private func integerCanEnd(_ frame: AutomatonFrame, _ node: Node) -> Bool {
        guard frame.phase == AutomatonFrame.Phase.zero || frame.phase == AutomatonFrame.Phase.integerDigits else { return false }
        if frame.flag == 1 {
            return node.low <= -1 && frame.digits <= node.low.magnitude && (node.high >= 0 || frame.digits >= node.high.magnitude)
        }
        return node.high >= 0 && frame.digits <= UInt64(node.high) && (node.low <= 0 || frame.digits >= UInt64(node.low))
    }

    @inline(__always)
    private func stepInteger(_ frame: inout AutomatonFrame, _ node: Node, _ byte: UInt8) -> FrameStep {
        typealias Phase = AutomatonFrame.Phase
        let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        guard isDigit else {
            if frame.phase == Phase.start, byte == UInt8(ascii: "-"), node.low <= -1 {
                frame.phase = Phase.afterMinus
                frame.flag = 1
                return .consumed
            }
            return integerCanEnd(frame, node) ? .endedBefore : .rejected
        }
        let digit = UInt64(byte - UInt8(ascii: "0"))
        switch frame.phase {
        case Phase.start, Phase.afterMinus:
            if digit == 0 {
                // "0" is only ever the whole number (and never negative).
                guard frame.phase == Phase.start, node.low <= 0, node.high >= 0 else { return .rejected }
                frame.phase = Phase.zero
                return .consumed
            }
        case Phase.integerDigits:
            break
        default:
            return .rejected
        }
        let (shifted, overflow) = frame.digits.multipliedReportingOverflow(by: 10)
        guard !overflow, let range = DecimalFeasibility.magnitudes(negative: frame.flag == 1, minimum: node.low, maximum: node.high),
            DecimalFeasibility.integerPrefixFeasible(shifted + digit, in: range)
        else { return .rejected }
        frame.digits = shifted + digit
        frame.count += 1
        frame.phase = Phase.integerDigits
        return .consumed
    }

    // MARK: Numbers

    /// The magnitude bounds for values of the frame's sign.
    @inline(__always)
    private func numberMagnitudes(_ frame: AutomatonFrame, _ node: Node) -> (lower: Double, upper: Double)? {
        if frame.flag == 1 {
            guard node.lower < 0 else { return nil }
            return (max(-node.upper, 0), -node.lower)
        }
        guard node.upper >= 0 else { return nil }
        return (max(node.lower, 0), node.upper)
    }

    /// digits / 10^fractionDigits, exactly as a JSON parser would read the text.
    @inline(__always)
    private func numberMagnitude(_ frame: AutomatonFrame) -> Double {
        frame.cursor > 0 ? Double(frame.digits) / Self.powerOfTen(Int(frame.cursor)) : Double(frame.digits)
    }

    private static func powerOfTen(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    private func numberCanEnd(_ frame: AutomatonFrame, _ node: Node) -> Bool {
        typealias Phase = AutomatonFrame.Phase
        guard frame.phase == Phase.zero || frame.phase == Phase.integerDigits || frame.phase == Phase.fractionDigits,
            let bounds = numberMagnitudes(frame, node)
        else { return false }
        let magnitude = numberMagnitude(frame)
        return magnitude >= bounds.lower && magnitude <= bounds.upper
    }

    /// Whether some completion of a number with these digits stays in range.
    private func numberFeasible(_ frame: AutomatonFrame, _ node: Node) -> Bool {
        guard let bounds = numberMagnitudes(frame, node) else { return false }
        let remaining = Self.maximumSignificantDigits - Int(frame.count)
        if frame.count == 0 { return bounds.lower <= bounds.upper }
        if frame.cursor >= 0 {
            // After the point: [v, v + 10^-fractionDigits), or exactly v when no digit is left.
            let magnitude = numberMagnitude(frame)
            if remaining == 0 { return magnitude >= bounds.lower && magnitude <= bounds.upper }
            let width = 1 / Self.powerOfTen(Int(frame.cursor))
            return DecimalFeasibility.intersects(low: magnitude, high: magnitude + width, lower: bounds.lower, upper: bounds.upper)
        }
        // Integer part P so far: [P·10^k, (P+1)·10^k) for each count k of integer digits still to come.
        let prefix = Double(frame.digits)
        if frame.digits == 0 { return DecimalFeasibility.intersects(low: 0, high: 1, lower: bounds.lower, upper: bounds.upper) }
        var scale = 1.0
        for _ in 0...remaining {
            if DecimalFeasibility.intersects(low: prefix * scale, high: (prefix + 1) * scale, lower: bounds.lower, upper: bounds.upper) {
                return true
            }
            scale *= 10
        }
        return false
    }

    @inline(__always)
    private func stepNumber(_ frame: inout AutomatonFrame, _ node: Node, _ byte: UInt8) -> FrameStep {
        typealias Phase = AutomatonFrame.Phase
        let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        var next = frame
        switch frame.phase {
        case Phase.start where byte == UInt8(ascii: "-"):
            next.phase = Phase.afterMinus
            next.flag = 1
            next.cursor = -1
            return accept(next, into: &frame, node)
        case Phase.start, Phase.afterMinus:
            guard isDigit else { return .rejected }
            next.cursor = -1
            next.phase = byte == UInt8(ascii: "0") ? Phase.zero : Phase.integerDigits
        case Phase.zero, Phase.integerDigits:
            if byte == UInt8(ascii: ".") {
                guard Int(frame.count) < Self.maximumSignificantDigits else { return .rejected }
                next.phase = Phase.afterDot
                next.cursor = 0
                return accept(next, into: &frame, node)
            }
            guard isDigit, frame.phase == Phase.integerDigits else {
                return numberCanEnd(frame, node) ? .endedBefore : .rejected
            }
        case Phase.afterDot, Phase.fractionDigits:
            guard isDigit else {
                return numberCanEnd(frame, node) ? .endedBefore : .rejected
            }
            next.phase = Phase.fractionDigits
            next.cursor += 1
        default:
            return .rejected
        }
        guard Int(frame.count) < Self.maximumSignificantDigits else { return .rejected }
        next.digits = frame.digits * 10 + UInt64(byte - UInt8(ascii: "0"))
        next.count += 1
        return accept(next, into: &frame, node)
    }

    @inline(__always)
    private func accept(_ next: AutomatonFrame, into frame: inout AutomatonFrame, _ node: Node) -> FrameStep {
        guard numberFeasible(next, node) else { return .rejected }
        frame = next
        return .consumed
    }

    // MARK: Arrays

    @inline(__always)
    private func stepArray(_ frame: inout AutomatonFrame, _ node: Node, _ byte: UInt8) -> FrameStep {
        typealias Phase = AutomatonFrame.Phase
        switch frame.phase {
        case Phase.start:
            guard byte == UInt8(ascii: "[") else { return .rejected }
            frame.phase = Phase.afterOpen
            return .consumed
        case Phase.afterOpen:
            if byte == UInt8(ascii: "]") { return node.low == 0 ? .finished : .rejected }
            guard node.high > 0 else { return .rejected }
            frame.phase = Phase.inItem
            return .push(node.target)
        case Phase.afterItem:
            if byte == UInt8(ascii: "]") { return Int64(frame.count) >= node.low ? .finished : .rejected }
            guard byte == UInt8(ascii: ","), Int64(frame.count) < node.high else { return .rejected }
            frame.phase = Phase.afterComma
            return .consumed
        case Phase.afterComma:
            frame.phase = Phase.inItem
            return .push(node.target)
        default:
            return .rejected
        }
    }

    // MARK: Objects

    /// Reads `{` and the first key of an object union, then becomes the chosen object's frame.
    @inline(__always)
    private func stepObjectUnion(_ frame: inout AutomatonFrame, _ node: Node, _ byte: UInt8) -> FrameStep {
        typealias Phase = AutomatonFrame.Phase
        switch frame.phase {
        case Phase.start:
            guard byte == UInt8(ascii: "{") else { return .rejected }
            frame.phase = Phase.afterOpen
            return .consumed
        case Phase.afterOpen where byte == UInt8(ascii: "}"):
            return node.low == 1 ? .finished : .rejected
        case Phase.afterOpen, Phase.inKey:
            let from = frame.phase == Phase.afterOpen ? node.target : frame.cursor
            guard let next = literals.next(from, byte) else { return .rejected }
            let terminal = literals.terminal(next)
            guard terminal >= 0 else {
                frame.phase = Phase.inKey
                frame.cursor = next
                return .consumed
            }
            let target = unionTargets[Int(terminal)]
            frame.node = target.objectNode
            frame.count = target.property + 1
            frame.phase = target.valueIncluded ? Phase.afterValue : Phase.beforeValue
            return .consumed
        default:
            return .rejected
        }
    }

    @inline(__always)
    private func stepObject(_ frame: inout AutomatonFrame, _ node: Node, _ byte: UInt8) -> FrameStep {
        typealias Phase = AutomatonFrame.Phase
        switch frame.phase {
        case Phase.start:
            guard byte == UInt8(ascii: "{") else { return .rejected }
            frame.phase = Phase.afterOpen
            return .consumed
        case Phase.afterOpen, Phase.afterComma:
            let layout = objects[Int(node.target)]
            if byte == UInt8(ascii: "}") {
                return frame.phase == Phase.afterOpen && layout.mayClose[Int(frame.count)] ? .finished : .rejected
            }
            let root = layout.keyTries[Int(frame.count)]
            guard root >= 0, let next = literals.next(root, byte) else { return .rejected }
            frame.phase = Phase.inKey
            frame.cursor = next
            return .consumed
        case Phase.inKey:
            guard let next = literals.next(frame.cursor, byte) else { return .rejected }
            let property = literals.terminal(next)
            if property >= 0 {
                frame.count = property + 1
                frame.phase = Phase.beforeValue
            } else {
                frame.cursor = next
            }
            return .consumed
        case Phase.beforeValue:
            frame.phase = Phase.inValue
            return .push(objects[Int(node.target)].valueNodes[Int(frame.count) - 1])
        case Phase.afterValue:
            let layout = objects[Int(node.target)]
            if byte == UInt8(ascii: "}") { return layout.mayClose[Int(frame.count)] ? .finished : .rejected }
            guard byte == UInt8(ascii: ","), layout.keyTries[Int(frame.count)] >= 0 else { return .rejected }
            frame.phase = Phase.afterComma
            return .consumed
        default:
            return .rejected
        }
    }
}
