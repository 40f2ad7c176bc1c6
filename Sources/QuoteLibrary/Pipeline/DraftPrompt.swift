/// The draft instructions, naming the requested language so the model writes in it, and the
/// guided output shape (one string field holding the sentence).
public enum DraftPrompt {
    public static let jsonSchema = #"""
        {"type":"object","additionalProperties":false,"required":["quote"],\#
        "properties":{"quote":{"type":"string","minLength":1,"maxLength":200,\#
        "description":"one original sentence, typically 10 to 16 words, at most 18, no attribution"}}}
        """#

    static let languageNames = ["en": "English", "de": "German", "es": "Spanish", "fr": "French", "it": "Italian",
                                "pt": "Portuguese"]

    public static func instructions(locale: String, theme: String?) -> String {
        let language = languageNames[SupportedLocale.language(of: locale)] ?? locale
        var text = "Write one original sentence in \(language), typically 10 to 16 words and never more than 18. "
            + "Make it concrete and warm: a specific image, someone doing something. "
            + "No attribution, no markdown, no hashtags, no emoji, no quotation marks, no line breaks."
        if let theme, !theme.isEmpty { text += " Theme: \(theme)." }
        return text
    }
}
