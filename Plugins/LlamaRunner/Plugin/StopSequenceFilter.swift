/// Holds back streamed text that might be the start of a stop sequence, so the matched sequence
/// never reaches the caller. Works on UTF-8 bytes; every piece it releases ends on a character
/// boundary because its input does (a stop sequence's prefix that matches whole characters of
/// the text ends on one too).
struct StopSequenceFilter {
    private let stops: [[UInt8]]
    private var held: [UInt8] = []

    init(_ stops: [String]) {
        self.stops = stops.map { Array($0.utf8) }.filter { !$0.isEmpty }
    }

    enum Step: Equatable {
        /// Text that is safe to send (may be empty).
        case text(String)
        /// A stop sequence matched; the text before it, which is the last output.
        case stopped(String)
    }

    mutating func push(_ text: String) -> Step {
        guard !stops.isEmpty else { return .text(text) }
        held.append(contentsOf: text.utf8)
        // The earliest complete match wins.
        var earliest: Int?
        for stop in stops {
            if let at = firstIndex(of: stop, in: held), at < (earliest ?? .max) { earliest = at }
        }
        if let earliest {
            let before = String(decoding: held[..<earliest], as: UTF8.self)
            held.removeAll()
            return .stopped(before)
        }
        // Release everything except the longest suffix that is a proper prefix of some stop.
        var keep = 0
        for stop in stops {
            for length in stride(from: min(stop.count - 1, held.count), to: keep, by: -1)
            where held[(held.count - length)...].elementsEqual(stop[..<length]) {
                keep = length
                break
            }
        }
        let released = String(decoding: held[..<(held.count - keep)], as: UTF8.self)
        held.removeFirst(held.count - keep)
        return .text(released)
    }

    /// What is still held when the generation ends for another reason.
    mutating func flush() -> String {
        defer { held.removeAll() }
        return String(decoding: held, as: UTF8.self)
    }

    private func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
