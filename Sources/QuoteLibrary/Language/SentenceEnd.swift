import Foundation

/// How a complete sentence ends: one definition for the draft's schema pattern (`DraftShape`),
/// which the local runner enforces while decoding, and for the gate's `sentenceEnd` check, which
/// re-checks every draft, from whichever side it came (Sources/QuoteLibrary/README.md,
/// "Thresholds"). A line cut off at the token limit ("… a cup of tea") has no such ending.
///
/// The ending is `.` or `…`, or `!` or `?` with at most one space before it (French puts a
/// space, U+00A0 or U+202F before them: "Regarde !"), then at most two more marks ("?!", "...").
/// Spanish ¿ and ¡ open a sentence, they do not end one. After the marks the gate also admits
/// closing quotation marks and brackets, each after at most one space (French "… « Reste ! »",
/// German "… „Bleib.“"); the draft pattern admits no quotation marks or brackets anywhere, so its
/// ending stops at the marks.
public enum SentenceEnd {
    /// The characters that may stand before a `!` or `?` and before a closing mark.
    static let spaces = " \u{00A0}\u{202F}"
    /// Closing quotation marks and brackets of the six languages' typography ("“" closes in German).
    static let closingMarks = "»”“\"’'›)"

    /// The final marks as a regular expression of the GuidedJSON pattern subset (raw characters,
    /// no `\u`), which Foundation reads the same way.
    public static let marksPattern = "(?:[.…]|[\(spaces)]?[!?])[.!?…]{0,2}"

    /// The gate's rule: the marks right after the last word (not after a space, but for the one
    /// before `!` or `?`), closing marks after them, then the end of the text.
    static let gateExpression = try! NSRegularExpression(
        pattern: "(?<!\\s)" + marksPattern + "(?:[\(spaces)]?[\(NSRegularExpression.escapedPattern(for: closingMarks))])*\\s*$")

    /// Whether `text` ends as a complete sentence does.
    public static func isComplete(_ text: String) -> Bool {
        gateExpression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
