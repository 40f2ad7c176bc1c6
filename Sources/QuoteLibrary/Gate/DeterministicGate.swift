import Foundation

/// DESIGN §6 step 3: cheap checks that need no model, in a fixed order. `evaluate` runs all of
/// them (for `check` and tuning); the pipeline stops at the first failure.
public struct DeterministicGate: Sendable {
    /// The draft asks for 10–16 words; the gate rejects outside 8…18 (DESIGN: at most 18).
    public static let wordLimits = 8...18
    public static let typicalWords = 10...16
    /// Below this lead of the identified language over the expected one the call is too weak to
    /// reject on.
    static let languageConfidenceFloor = 0.15

    public let extraBannedFragments: [String]
    let identifier: LanguageIdentifier

    public init(extraBannedFragments: [String] = [], identifier: LanguageIdentifier = .shared) {
        self.extraBannedFragments = extraBannedFragments.map { QuoteText.phraseKey($0) }
        self.identifier = identifier
    }

    public static let order: [GateName] = [.empty, .promptFragment, .wrappingQuotes, .markup, .attribution,
                                           .sentenceCount, .length, .language, .bannedFragment, .cliche]

    public func evaluate(_ text: String, locale: String) -> [GateResult] {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let phrase = QuoteText.phraseKey(trimmed)
        let language = SupportedLocale.language(of: locale)
        return [
            checkEmpty(trimmed),
            checkPromptFragments(trimmed, phrase: phrase),
            checkWrappingQuotes(trimmed),
            checkMarkup(text),
            checkAttribution(trimmed),
            checkSentences(trimmed),
            checkLength(trimmed),
            checkLanguage(trimmed, expected: language),
            checkBanned(trimmed, phrase: phrase),
            checkCliches(phrase, language: language),
        ]
    }

    /// The first failing check, or nil when the draft passes the whole gate.
    public func firstFailure(_ text: String, locale: String) -> GateResult? {
        evaluate(text, locale: locale).first { !$0.passed }
    }

    // MARK: Checks

    private func checkEmpty(_ text: String) -> GateResult {
        text.contains(where: \.isLetter) ? .pass(.empty) : .fail(.empty, text.isEmpty ? "the draft is empty" : "the draft has no words")
    }

    private func checkPromptFragments(_ text: String, phrase: String) -> GateResult {
        if let fragment = GateLexicon.promptFragments.first(where: { phrase.contains(" \($0) ") }) {
            return .fail(.promptFragment, "contains the prompt fragment \"\(fragment)\"")
        }
        if let colon = text.firstIndex(of: ":"), text.distance(from: text.startIndex, to: colon) <= 14 {
            let label = QuoteText.normalizedKey(String(text[..<colon]))
            if GateLexicon.leadingLabels.contains(label) {
                return .fail(.promptFragment, "starts with the label \"\(text[..<colon]):\"")
            }
        }
        if text.range(of: #"\b\d+\s*(–|-|to|bis|a|à)?\s*\d*\s*(words?|wörter|palabras|mots|parole|palavras)\b"#,
                      options: [.regularExpression, .caseInsensitive]) != nil {
            return .fail(.promptFragment, "mentions a word count, echoing the prompt")
        }
        return .pass(.promptFragment)
    }

    private static let openingQuotes: Set<Character> = ["\"", "“", "”", "„", "«", "»", "‚", "‘", "’", "'", "「", "『", "‹", "›"]
    private static let closingQuotes: Set<Character> = ["\"", "“", "”", "«", "»", "‘", "’", "'", "」", "』", "‹", "›"]

    private func checkWrappingQuotes(_ text: String) -> GateResult {
        guard let first = text.first, Self.openingQuotes.contains(first) else { return .pass(.wrappingQuotes) }
        let tail = text.suffix(3).filter { !".!?…,;".contains($0) && !$0.isWhitespace }
        if let last = tail.last, Self.closingQuotes.contains(last), text.count > 1 {
            return .fail(.wrappingQuotes, "the draft is wrapped in quotation marks")
        }
        return .pass(.wrappingQuotes)
    }

    private func checkMarkup(_ text: String) -> GateResult {
        if text.contains(where: \.isNewline) { return .fail(.markup, "contains a line break") }
        if text.range(of: #"#\p{L}"#, options: .regularExpression) != nil { return .fail(.markup, "contains a hashtag") }
        if let emoji = text.unicodeScalars.first(where: Self.isEmoji) {
            return .fail(.markup, "contains an emoji (U+\(String(emoji.value, radix: 16, uppercase: true)))")
        }
        let markdown = [#"\*\*"#, #"__"#, #"`"#, #"^\s*#+\s"#, #"^\s*[-*+]\s"#, #"^\s*>\s"#, #"\]\("#, #"^\s*\d+\.\s"#,
                        #"(^|\s)\*[^*\s][^*]*\*(\s|$|[.,!?])"#, #"(^|\s)_[^_\s][^_]*_(\s|$|[.,!?])"#]
        if markdown.contains(where: { text.range(of: $0, options: .regularExpression) != nil }) {
            return .fail(.markup, "contains markdown")
        }
        return .pass(.markup)
    }

    static func isEmoji(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isEmojiPresentation || scalar.value == 0xFE0F
            || (properties.isEmoji && scalar.value >= 0x2190 && !(0x2190...0x21FF).contains(scalar.value))
    }

    private func checkAttribution(_ text: String) -> GateResult {
        let patterns = [
            // "… — Ada Lovelace", "… - Seneca", "… ~ Anonymous", optionally with a closing period
            // (a hyphen or tilde only after a space, so "an X-Ray." is not an attribution)
            #"(\s[~-]|[—–―])\s*\p{Lu}[\p{L}.'’-]*(\s+(\p{Lu}[\p{L}.'’-]*|de|da|von|van|la|le|di|del|dos|y))*\s*\.?$"#,
            // "… (Mark Twain)" or "… (Seneca, 65)"
            #"\(\s*\p{Lu}[\p{L}.'’ -]*(,\s*\d{1,4})?\s*\)\s*\.?$"#,
            #"(?i)(^|\s)(anonymous|unknown author|anonym|anónimo|anonyme|anonimo|anônimo)\s*\.?$"#,
        ]
        if patterns.contains(where: { text.range(of: $0, options: .regularExpression) != nil }) {
            return .fail(.attribution, "ends with an attribution to an author")
        }
        return .pass(.attribution)
    }

    private func checkSentences(_ text: String) -> GateResult {
        let count = QuoteText.sentences(text).count
        return count <= 1 ? .pass(.sentenceCount, score: Double(count))
            : .fail(.sentenceCount, "has \(count) sentences; one is required", score: Double(count))
    }

    private func checkLength(_ text: String) -> GateResult {
        let count = QuoteText.words(text).count
        let score = Double(count)
        if count < Self.wordLimits.lowerBound {
            return .fail(.length, "has \(count) words; at least \(Self.wordLimits.lowerBound) are required", score: score)
        }
        if count > Self.wordLimits.upperBound {
            return .fail(.length, "has \(count) words; at most \(Self.wordLimits.upperBound) are allowed", score: score)
        }
        let note = Self.typicalWords.contains(count) ? nil : "outside the typical 10–16 words"
        return .pass(.length, score: score, note: note)
    }

    private func checkLanguage(_ text: String, expected: String) -> GateResult {
        guard SupportedLocale.languages.contains(expected) else {
            return .fail(.language, "locale \(expected) is not supported (supported: en, de, es, fr, it, pt)")
        }
        let guess: LanguageIdentifier.Guess
        do { guess = try identifier.identify(text) } catch {
            return .fail(.language, "the language cannot be checked: \(error)")
        }
        guard let detected = guess.language else {
            return .fail(.language, "the text has no letters to identify a language by", score: 0)
        }
        let lead = guess.lead(over: expected)
        if detected != expected, lead >= Self.languageConfidenceFloor {
            let written = detected == LanguageIdentifier.other
                ? "another language (closest profile: \(guess.closest ?? "none"))" : detected
            return .fail(.language, "written in \(written), expected \(expected)", score: lead)
        }
        let note = detected == expected ? nil : "closest language \(guess.closest ?? detected), too close to call against \(expected)"
        return .pass(.language, score: guess.confidence, note: note)
    }

    private func checkBanned(_ text: String, phrase: String) -> GateResult {
        if let character = text.first(where: { GateLexicon.bannedCharacters.contains($0) }) {
            return .fail(.bannedFragment, "contains the character \"\(character)\"")
        }
        if text.range(of: #"(?i)https?://|www\."#, options: .regularExpression) != nil {
            return .fail(.bannedFragment, "contains a link")
        }
        if let fragment = GateLexicon.bannedFragments.map({ " \($0) " }).first(where: phrase.contains)
            ?? extraBannedFragments.first(where: phrase.contains) {
            return .fail(.bannedFragment, "contains the banned fragment \"\(fragment.trimmingCharacters(in: .whitespaces))\"")
        }
        return .pass(.bannedFragment)
    }

    private func checkCliches(_ phrase: String, language: String) -> GateResult {
        // Clichés of every language are checked: a translated formula is still a formula.
        let ordered = [language] + LanguageProfiles.languages.filter { $0 != language }
        for code in ordered {
            if let cliche = GateLexicon.cliches[code]?.first(where: { phrase.contains(" \($0) ") }) {
                return .fail(.cliche, "uses the cliché \"\(cliche)\" (\(code))")
            }
        }
        return .pass(.cliche)
    }
}
