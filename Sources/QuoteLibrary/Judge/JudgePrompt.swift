/// What the judge session is asked, and the shape its answer must have (for guided generation;
/// `JudgeScores.parse` validates the answer either way).
public enum JudgePrompt {
    public static let jsonSchema = #"""
        {"type":"object","additionalProperties":false,"required":["quality","originality","warmth","overall"],\#
        "properties":{"quality":{"type":"integer","minimum":1,"maximum":10},\#
        "originality":{"type":"integer","minimum":1,"maximum":10},\#
        "warmth":{"type":"integer","minimum":1,"maximum":10},\#
        "overall":{"type":"integer","minimum":1,"maximum":10}}}
        """#

    public static func instructions(draft: String, locale: String) -> String {
        let language = DraftPrompt.languageNames[SupportedLocale.language(of: locale)] ?? locale
        return "You judge one short original line written in \(language) for a daily-quote app. "
            + "Score it from 1 to 10 for quality (clear, natural, well made), originality (not a stock phrase), "
            + "warmth (kind, human) and overall. Answer only with the JSON object.\n\nLine: \(draft)"
    }
}
