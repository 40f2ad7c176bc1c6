/// Watches generated text for stop sequences. Text that might be the start of a stop sequence is
/// held back until it is clear, so a stop sequence never reaches the caller, even in part.
public struct StopSequenceFilter: Sendable {
    public let sequences: [String]
    private var held = ""

    public init(sequences: [String]) { self.sequences = sequences.filter { !$0.isEmpty } }

    /// Adds text; returns what can be released and whether a stop sequence was found (the text
    /// before it is released, the rest dropped).
    public mutating func append(_ text: String) -> (release: String, stopped: Bool) {
        held += text
        guard !sequences.isEmpty else {
            defer { held = "" }
            return (held, false)
        }
        var earliest: String.Index?
        for s in sequences {
            if let r = held.range(of: s), earliest.map({ r.lowerBound < $0 }) ?? true { earliest = r.lowerBound }
        }
        if let cut = earliest {
            defer { held = "" }
            return (String(held[..<cut]), true)
        }
        // Keep the longest suffix that is a prefix of some stop sequence.
        var keep = 0
        for s in sequences {
            for length in stride(from: min(s.count - 1, held.count), to: keep, by: -1) where held.hasSuffix(s.prefix(length)) {
                keep = length
                break
            }
        }
        let release = String(held.dropLast(keep))
        held = String(held.suffix(keep))
        return (release, false)
    }

    /// Releases what is held (generation ended without a stop sequence).
    public mutating func finish() -> String {
        defer { held = "" }
        return held
    }
}
