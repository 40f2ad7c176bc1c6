import Foundation

/// How the draft model is asked for a line (`quote.draft_prompt`).
public enum DraftPromptStyle: String, Sendable, CaseIterable {
    /// An instruction naming the language, length and tone: for an instruction-tuned model.
    case instructions
    /// Curated quotes of the requested language as `{"quote": …}` lines to continue: for a base
    /// model, which continues text rather than following instructions.
    case fewShot = "few-shot"
}

/// The draft prompt, in one of two styles: instructions naming the requested language so the
/// model writes in it, or a few-shot list of curated quotes in it. The guided output shape is the
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

    /// The prompt of `style`. A few-shot prompt has no theme (a base model would read an
    /// instruction as text to continue, in English); a language without curated quotes of the
    /// draft's shape gets the instructions.
    public static func text(_ style: DraftPromptStyle, locale: String, theme: String?, seed: UInt64?) -> String {
        switch style {
        case .instructions: instructions(locale: locale, theme: theme)
        case .fewShot: fewShot(locale: locale, seed: seed) ?? instructions(locale: locale, theme: theme)
        }
    }

    /// Curated quotes shown per few-shot prompt.
    static let fewShotExampleCount = 5

    /// Curated quotes per language that fit the draft's word limits, in catalog order.
    static let fewShotPool: [String: [String]] = {
        // The catalog is build data checked by its own tests; unreadable, no language has a pool.
        let entries = (try? CuratedCatalog.entries()) ?? []
        var pool: [String: [String]] = [:]
        for entry in entries where DraftShape.wordLimits.contains(QuoteText.words(entry.text).count) {
            pool[SupportedLocale.language(of: entry.locale), default: []].append(entry.text)
        }
        return pool
    }()

    /// `fewShotExampleCount` curated quotes of the locale's language as JSON lines, chosen by the
    /// seed (another seed, other examples), ending where the model's own `{"quote": …}` line begins:
    /// the guided output starts exactly as the examples do.
    static func fewShot(locale: String, seed: UInt64?) -> String? {
        guard let pool = fewShotPool[SupportedLocale.language(of: locale)], pool.count >= fewShotExampleCount else { return nil }
        let start = Int((seed ?? 0) % UInt64(pool.count))
        let step = max(1, pool.count / fewShotExampleCount)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return (0..<fewShotExampleCount).map { index in
            let text = pool[(start + index * step) % pool.count]
            return #"{"quote": "# + String(decoding: try! encoder.encode(text), as: UTF8.self) + "}"
        }.joined(separator: "\n") + "\n"
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
