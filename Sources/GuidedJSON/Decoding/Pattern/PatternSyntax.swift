import JSONModel

/// The regular-expression subset guided decoding can enforce, parsed from a JSON Schema
/// `pattern`: literals, `.`, classes `[a-z]` `[^...]`, `\d \w \s \D \W \S`, escaped punctuation,
/// groups `(...)` `(?:...)`, `|`, quantifiers `* + ? {n} {n,} {n,m}` (lazy forms mean the same
/// here), `^` at the start and `$` at the end. Anything else (back-references, lookaround, `\b`,
/// `\p{...}`, anchors elsewhere) is `.unsupportedGuide`.
indirect enum PatternSyntax: Sendable {
    case scalars(ScalarSet)
    case sequence([PatternSyntax])
    case alternatives([PatternSyntax])
    case repetition(PatternSyntax, minimum: Int, maximum: Int?)

    /// Bounded repetitions are expanded; this caps their total size.
    static let maximumRepetition = 64

    /// The pattern as one expression with JSON Schema's search semantics made explicit: an
    /// alternative without `^` may start anywhere, one without `$` may end anywhere.
    static func parse(_ pattern: String, at path: JSONPath) throws -> PatternSyntax {
        var parser = Parser(scalars: Array(pattern.unicodeScalars), path: path)
        var branches: [PatternSyntax] = []
        repeat {
            let anchoredStart = parser.take("^")
            var body = try parser.sequence(topLevel: true)
            let anchoredEnd = parser.take("$")
            let anything = PatternSyntax.repetition(.scalars(.producible), minimum: 0, maximum: nil)
            if !anchoredStart { body = .sequence([anything, body]) }
            if !anchoredEnd { body = .sequence([body, anything]) }
            branches.append(body)
        } while parser.take("|")
        if let rest = parser.peek {
            throw parser.unsupported("\(rest == "^" || rest == "$" ? "an anchor inside the pattern" : "'\(rest)' here")")
        }
        return branches.count == 1 ? branches[0] : .alternatives(branches)
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        let path: JSONPath
        var position = 0

        init(scalars: [Unicode.Scalar], path: JSONPath) {
            self.scalars = scalars
            self.path = path
        }

        var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard peek == scalar else { return false }
            position += 1
            return true
        }

        func unsupported(_ what: String) -> GuidedJSONError {
            GuidedJSONError(.unsupportedGuide, "pattern: \(what) cannot be enforced during local decoding (at character \(position))", path: path)
        }

        /// alternatives := sequence ('|' sequence)*
        mutating func alternatives() throws -> PatternSyntax {
            var branches = [try sequence(topLevel: false)]
            while take("|") { branches.append(try sequence(topLevel: false)) }
            return branches.count == 1 ? branches[0] : .alternatives(branches)
        }

        /// sequence := (atom quantifier?)*, up to '|', ')', the end, or (at the top level) a `$`
        /// that ends an alternative.
        mutating func sequence(topLevel: Bool) throws -> PatternSyntax {
            var items: [PatternSyntax] = []
            while let next = peek, next != "|", next != ")" {
                if topLevel, next == "$", position == scalars.count - 1 || scalars[position + 1] == "|" { break }
                var atom = try self.atom()
                atom = try quantified(atom)
                items.append(atom)
            }
            return .sequence(items)
        }

        mutating func quantified(_ atom: PatternSyntax) throws -> PatternSyntax {
            var result = atom
            while let next = peek {
                let bounds: (Int, Int?)
                switch next {
                case "*": position += 1; bounds = (0, nil)
                case "+": position += 1; bounds = (1, nil)
                case "?": position += 1; bounds = (0, 1)
                case "{":
                    guard let parsed = try braces() else { return result }
                    bounds = parsed
                default: return result
                }
                _ = take("?")  // lazy: same language
                if bounds.0 > PatternSyntax.maximumRepetition || (bounds.1 ?? 0) > PatternSyntax.maximumRepetition {
                    throw unsupported("a repetition above \(PatternSyntax.maximumRepetition)")
                }
                result = .repetition(result, minimum: bounds.0, maximum: bounds.1)
            }
            return result
        }

        /// `{n}`, `{n,}`, `{n,m}`; nil (nothing consumed) when the brace is a literal.
        mutating func braces() throws -> (Int, Int?)? {
            let start = position
            position += 1
            func number() -> Int? {
                var digits = ""
                while let scalar = peek, ("0"..."9").contains(scalar) {
                    digits.unicodeScalars.append(scalar)
                    position += 1
                }
                return digits.isEmpty ? nil : Int(digits.prefix(6))
            }
            guard let minimum = number() else { position = start; return nil }
            var maximum: Int? = minimum
            if take(",") { maximum = number() }
            guard take("}") else { position = start; return nil }
            if let maximum, maximum < minimum {
                throw GuidedJSONError(.invalidSchema, "pattern: {\(minimum),\(maximum)} has its bounds reversed", path: path)
            }
            return (minimum, maximum)
        }

        mutating func atom() throws -> PatternSyntax {
            let scalar = scalars[position]
            position += 1
            switch scalar {
            case "(":
                if take("?") {
                    guard take(":") else { throw unsupported("lookaround and named groups") }
                }
                let inner = try alternatives()
                guard take(")") else { throw GuidedJSONError(.invalidSchema, "pattern: unclosed group", path: path) }
                return inner
            case "[": return .scalars(try characterClass())
            case ".": return .scalars(ScalarSet([0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029]).complement)
            case "\\": return .scalars(try escape(inClass: false))
            case "^", "$": throw unsupported("an anchor inside the pattern")
            case "*", "+", "?": throw GuidedJSONError(.invalidSchema, "pattern: '\(scalar)' has nothing to repeat", path: path)
            default: return .scalars(.scalar(scalar.value).intersection(.producible))
            }
        }

        mutating func characterClass() throws -> ScalarSet {
            let negated = take("^")
            var set = ScalarSet()
            var first = true
            while let next = peek, next != "]" || first {
                first = false
                position += 1
                var low: ScalarSet
                if next == "\\" { low = try escape(inClass: true) } else { low = .scalar(next.value) }
                if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]", low.ranges.count == 1,
                    low.ranges[0].count == 1
                {
                    position += 1
                    let upperScalar = scalars[position]
                    position += 1
                    let high = upperScalar == "\\" ? try escape(inClass: true) : .scalar(upperScalar.value)
                    guard high.ranges.count == 1, high.ranges[0].count == 1, high.ranges[0].lowerBound >= low.ranges[0].lowerBound else {
                        throw GuidedJSONError(.invalidSchema, "pattern: bad range in a character class", path: path)
                    }
                    low = ScalarSet([low.ranges[0].lowerBound...high.ranges[0].lowerBound])
                }
                set = set.union(low)
            }
            guard take("]") else { throw GuidedJSONError(.invalidSchema, "pattern: unclosed character class", path: path) }
            return negated ? set.complement : set.intersection(.producible)
        }

        mutating func escape(inClass: Bool) throws -> ScalarSet {
            guard let scalar = peek else { throw GuidedJSONError(.invalidSchema, "pattern: ends with a backslash", path: path) }
            position += 1
            let digits = ScalarSet([0x30...0x39])
            let word = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
            let space = ScalarSet([0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x2028...0x2029, 0xFEFF...0xFEFF])
            switch scalar {
            case "d": return digits
            case "D": return digits.complement
            case "w": return word
            case "W": return word.complement
            case "s": return space.intersection(.producible)
            case "S": return space.complement
            case "n": return .scalar(0x0A)
            case "t": return .scalar(0x09)
            case "r": return .scalar(0x0D)
            case "f": return .scalar(0x0C)
            case "b" where inClass: return .scalar(0x08)
            default:
                if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                    throw unsupported("the escape \\\(scalar)")
                }
                return .scalar(scalar.value).intersection(.producible)
            }
        }
    }
}
