import Foundation

/// How a complete sentence ends: one definition for the draft's schema pattern (`DraftShape`),
/// which the local runner enforces while decoding, and for the gate's `sentenceEnd` check, which
/// re-checks every draft, from whichever side it came (Sources/QuoteLibrary/README.md,
/// "Thresholds"). A line cut off at the token limit ("… a cup of tea") has no such ending.
///
/// The ending is `.`, or one to three of `!` and `?` ("?!"). An ellipsis is not an ending: a
/// line that ends in "…" or "..." trails off (SmolLM2, made to end its line, ended one draft in
/// four so, right after a dangling word: "… the first snow of..."; README.md, "Real-model
/// eval"). French puts a space, U+00A0 or U+202F before `!` and `?` ("Regarde !"): the gate
/// admits it in French lines; the pattern, which is the same for every language, does not, so a
/// French guided draft ends "Regarde!". Spanish ¿ and ¡ open a sentence, they do not end one.
/// After the marks the gate also admits closing quotation marks and brackets, each after at most
/// one space (French "… « Reste ! »", German "… „Bleib.“"); the draft pattern admits no quotation
/// marks or brackets anywhere, so its ending stops at the marks.
public enum SentenceEnd {
    /// The characters that may stand before a closing mark, and in French before `!` or `?`.
    static let spaces = " \u{00A0}\u{202F}"
    /// Closing quotation marks and brackets of the six languages' typography ("“" closes in German).
    static let closingMarks = "»”“\"’'›)"

    /// The final marks as a regular expression of the GuidedJSON pattern subset (raw characters,
    /// no `\u`), which Foundation reads the same way.
    public static let marksPattern = "(?:\\.|[!?]{1,3})"

    /// The gate's rule: the marks right after the last word, not after a space or another mark
    /// (so "..." is no "." ending; in French a space may come before `!` or `?`), closing marks
    /// after them, then the end of the text.
    static func gateExpression(french: Bool) -> NSRegularExpression {
        let marks = french ? "(?:\\.|[\(spaces)]?[!?]{1,3})" : marksPattern
        return try! NSRegularExpression(
            pattern: "(?<![\\s.…!?])" + marks + "(?:[\(spaces)]?[\(NSRegularExpression.escapedPattern(for: closingMarks))])*\\s*$")
    }
    static let gateExpressions = (other: gateExpression(french: false), french: gateExpression(french: true))

    /// `text` cut before its final marks (and any closing marks and space after them), and those
    /// marks; nil when it does not end as a complete sentence does (`isComplete`).
    public static func finalMarks(of text: String, language: String? = nil) -> (body: String, marks: String)? {
        let expression = language == "fr" ? gateExpressions.french : gateExpressions.other
        guard let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range, in: text) else { return nil }
        return (String(text[..<range.lowerBound]), String(text[range]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether `text`, a line in `language` (a language code such as "fr"; nil when unknown),
    /// ends as a complete sentence does.
    public static func isComplete(_ text: String, language: String? = nil) -> Bool {
        let expression = language == "fr" ? gateExpressions.french : gateExpressions.other
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
