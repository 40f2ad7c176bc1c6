import Foundation

/// One of the gate's regular expressions, compiled once. The gate runs on every draft, and its
/// frames of credit are long alternations that cost far more to compile than to match.
struct GatePattern: Sendable {
    private let expression: NSRegularExpression

    /// `pattern` is a constant of the gate's source; the gate's tests run every one of them, so a
    /// pattern that does not compile fails there.
    init(_ pattern: String, caseInsensitive: Bool = false) {
        do {
            expression = try NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
        } catch {
            fatalError("the gate pattern \(pattern) does not compile: \(error)")
        }
    }

    func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Where it matches in `text`, every match in order.
    func ranges(in text: String) -> [Range<String.Index>] {
        expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text) }
    }
}
