/// The draft instructions, in the requested language's name so the model writes in it.
public enum DraftPrompt {
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
