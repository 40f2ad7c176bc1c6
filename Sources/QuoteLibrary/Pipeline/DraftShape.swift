/// The draft's shape as a JSON Schema `pattern`, so the local runner enforces it by token
/// masking while decoding (the GuidedJSON pattern subset: classes, groups, bounded repeats; no
/// `\p{…}`): one complete sentence of 8–18 space-separated words (see `decodedWordLimit`), no
/// digits, quotation marks, markup, hashtags, emoji, colons, parentheses or line breaks. The
/// deterministic gate still checks every draft.
///
/// The first word begins with a capital (after ¿ or ¡): SmolLM2, left free, began a quarter of its
/// drafts in lower case, in the middle of a phrase ("snow of the year, …"; README.md, "Measured
/// on the real local model").
///
/// A word is a run of word characters joined by at most three inner hyphens or apostrophes ("don't",
/// "l’eau", "twenty-one"), as `QuoteText.words` counts it; a comma or semicolon may follow it,
/// an inverted mark (¿ ¡) may open it, and the last must be followed by the sentence's final
/// marks as `SentenceEnd` defines them (. ! ?, no ellipsis), so a guided decode cannot stop
/// mid-phrase: the closing quote of the JSON string is masked until the marks are written.
///
/// The pattern admits one word more than the gate (`decodedWordLimit`). Held to exactly 18, a
/// model that had not finished by its 18th word was made to end there: the mask took the space
/// away, and it glued letters onto the last word or closed the phrase where it stood ("… a
/// romantic dinner witha.", "… a warm and festive scene inspired by."; 20 of SmolLM2's 29
/// accepted English lines had exactly 18 words, README.md, "Measured on the real local model").
/// With the one spare word, every line the gate can accept was ended by the model itself, and a
/// line the mask had to end is 19 words long, which the gate rejects as `length`.
public enum DraftShape {
    public static let wordLimits = DeterministicGate.wordLimits
    /// The most words the pattern lets a decode write: one past the gate's limit.
    public static let decodedWordLimit = wordLimits.upperBound + 1
    public static let maximumCharacters = 200
    /// Most hyphens or apostrophes inside one word ("mother-in-law's" has three). Unbounded, a
    /// small model held to the sentence's end spent its token limit on one chain
    /// ("theyear's'first'underscore'derased…") and never ended the line.
    public static let maximumJoins = 3

    /// Scalars that never occur inside a word: whitespace, ASCII digits, punctuation and
    /// symbols, Latin-1 punctuation and symbols, the general-punctuation, currency and symbol
    /// blocks (arrows to dingbats, where most emoji live), the CJK radicals and ideographic
    /// description characters (U+2E80–2FFF: Gemma 3 270M wrote U+2FFF as a word), CJK
    /// punctuation, variation selectors, private use, the emoji and pictograph planes
    /// (U+1F000–1FFFF) and tags. Digits are left out because a small model, once it starts a run
    /// of them, fills the token limit with one "word".
    static let nonWordRanges: [ClosedRange<UInt32>] = [
        0x00...0x40, 0x5B...0x60, 0x7B...0xBF, 0xD7...0xD7, 0xF7...0xF7,
        0x2000...0x2BFF, 0x2E00...0x2FFF, 0x3000...0x303F, 0xE000...0xF8FF, 0xFE00...0xFE0F, 0xFE30...0xFE4F,
        0xFF00...0xFF20, 0x1F000...0x1FFFF, 0xE0000...0xE007F,
    ]

    /// A class of every scalar outside `nonWordRanges`, written with raw characters (the
    /// GuidedJSON subset has no `\u`) and ASCII punctuation escaped so none reads as syntax.
    /// Control characters below the space are left to \s and to JSON, which refuses them raw.
    static let wordCharacter: String = {
        func literal(_ value: UInt32) -> String {
            let character = String(Character(Unicode.Scalar(value)!))
            return value < 0x80 ? "\\" + character : character
        }
        var body = "\\s"
        for range in nonWordRanges {
            let low = max(range.lowerBound, 0x21), high = range.upperBound
            body += low == high ? literal(low) : literal(low) + "-" + literal(high)
        }
        return "[^" + body + "]"
    }()

    /// The capitals of the six languages' alphabets (ASCII, Latin-1, Œ): the first word begins
    /// with one, as the gate's `sentenceStart` requires.
    static let capital = "[A-ZÀ-ÖØ-ÞŒ]"

    public static let pattern: String = {
        let letter = wordCharacter
        let joins = "(?:[\\-'’]\(letter)+){0,\(maximumJoins)}"
        let first = "[¿¡]?\(capital)\(letter)*\(joins)"
        let word = "[¿¡]?\(letter)+\(joins)"
        let rest = "(?:[,;]? \(word)){\(wordLimits.lowerBound - 1),\(decodedWordLimit - 1)}"
        return "^\(first)\(rest)\(SentenceEnd.marksPattern)$"
    }()
}
