import Foundation

/// How the draft model is asked for a line (`quote.draft_prompt`).
public enum DraftPromptStyle: String, Sendable, CaseIterable {
    /// An instruction naming the language, length and tone: for an instruction-tuned model.
    case instructions
    /// Example lines of the requested language as `{"quote": …}` lines to continue: for a base
    /// model, which continues text rather than following instructions.
    case fewShot = "few-shot"
}

/// The draft prompt, in one of two styles: instructions naming the requested language so the
/// model writes in it, or a few-shot list of example lines in it. The guided output shape is the
/// same for both: one string field holding the sentence, its shape as a `DraftShape` pattern.
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

    /// Eight one-letter words, their spaces and the final mark: no shorter text fits the pattern.
    static let minimumCharacters = 2 * DraftShape.wordLimits.lowerBound

    static let languageNames = ["en": "English", "de": "German", "es": "Spanish", "fr": "French", "it": "Italian",
                                "pt": "Portuguese"]

    /// The example lines a prompt of `style` shows, which a draft must not copy (the gate's
    /// `promptFragment` check): none for instructions, nor for a language without example lines.
    public static func examples(_ style: DraftPromptStyle, locale: String, seed: UInt64?) -> [String] {
        style == .fewShot ? fewShotExamples(locale: locale, seed: seed) ?? [] : []
    }

    /// The prompt that shows `examples` (from `examples(_:locale:seed:)`): them as lines to
    /// continue, or, with none, the instructions. A few-shot prompt has no theme (a base model
    /// would read an instruction as text to continue, in English).
    public static func text(locale: String, theme: String?, examples: [String]) -> String {
        examples.isEmpty ? instructions(locale: locale, theme: theme) : fewShot(examples)
    }

    /// Example lines shown per few-shot prompt.
    static let fewShotExampleCount = 5

    /// `fewShotExampleCount` lines of the locale's language from `fewShotPool`, chosen by the seed
    /// (another seed, other examples). The pool is written lines of the kind the product keeps, not
    /// curated quotes: a base model shown famous quotes recites famous quotes
    /// (Sources/QuoteLibrary/README.md, "Draft prompt").
    static func fewShotExamples(locale: String, seed: UInt64?) -> [String]? {
        guard let pool = fewShotPool[SupportedLocale.language(of: locale)], pool.count >= fewShotExampleCount else { return nil }
        let start = Int((seed ?? 0) % UInt64(pool.count))
        let step = max(1, pool.count / fewShotExampleCount)
        return (0..<fewShotExampleCount).map { pool[(start + $0 * step) % pool.count] }
    }

    /// The examples as JSON lines, ending where the model's own `{"quote": …}` line begins: the
    /// guided output starts exactly as the examples do.
    static func fewShot(_ examples: [String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return examples.map { #"{"quote": "# + String(decoding: try! encoder.encode($0), as: UTF8.self) + "}" }
            .joined(separator: "\n") + "\n"
    }

    public static func instructions(locale: String, theme: String?) -> String {
        let language = languageNames[SupportedLocale.language(of: locale)] ?? locale
        var text = "Write one original sentence in \(language), typically 10 to 16 words and never more than 18. "
            + "Make it concrete and warm: a specific image, someone doing something. "
            + "No attribution, no markdown, no hashtags, no emoji, no quotation marks, no line breaks."
        if let theme, !theme.isEmpty { text += " Theme: \(theme)." }
        return text
    }
}
