import Foundation

/// The draft instructions, naming the requested language so the model writes in it, and the
/// guided output shape: one string field holding the sentence, its shape as a `DraftShape`
/// pattern.
public enum DraftPrompt {
    public static let jsonSchema: String = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let pattern = String(decoding: try! encoder.encode(DraftShape.pattern), as: UTF8.self)
        return #"{"type":"object","additionalProperties":false,"required":["quote"],"#
            + #""properties":{"quote":{"type":"string","minLength":\#(minimumCharacters),"#
            + #""maxLength":\#(DraftShape.maximumCharacters),"pattern":\#(pattern),"#
            + #""description":"one original sentence, typically 10 to 16 words, at most 18, no attribution"}}}"#
    }()

    /// Eight one-letter words and their spaces: no shorter text fits the pattern.
    static let minimumCharacters = 2 * DraftShape.wordLimits.lowerBound - 1

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
