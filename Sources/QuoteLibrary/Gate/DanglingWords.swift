import Foundation

/// The deterministic gate's dangling-word check (Sources/QuoteLibrary/README.md, "Thresholds",
/// "Dangling last word"): a line whose last word is one that real sentences almost never end on
/// ("… the first snow of.", "… the perfect backdrop to a.", "… with ariadne's.") stops mid-phrase,
/// whatever mark follows it. Decided from `SentenceEndCounts`, not from a word list: a word seen
/// at least `minimumOccurrences` times that ends fewer than `maximumFinalRate` of its sentences is
/// dangling. A pronoun, a German separable prefix, an adverb or a noun ends sentences often
/// enough ("it" 844 of 6613, "an" 176 of 2074); a word seen fewer times is no evidence and passes.
///
/// Not looked up: a last word with a digit, and a capitalised last word after the first (a name,
/// or a German noun), as `RealWords` and the counts leave them out. A joined last word is looked up
/// by its last part with the joiner ("ariadne's" as "'s", "prends-le" as "-le").
enum DanglingWords {
    /// Tuned on the tuning half of eval/dangling and of the good lines (eval/dangling/README.md).
    static let minimumOccurrences = 100
    static let maximumFinalRate = 0.0017

    struct Dangling: Equatable {
        let word: String
        let key: String
        let count: SentenceEndCounts.Count
    }

    /// The key a last word is counted under: lower case, accents kept, the last joined part with
    /// its joiner (the rule of scripts/sentence-ends.py).
    static func key(_ word: String) -> String {
        let lowered = word.precomposedStringWithCanonicalMapping.replacingOccurrences(of: "’", with: "'").lowercased()
        guard let joiner = lowered.lastIndex(where: { $0 == "'" || $0 == "-" }) else { return lowered }
        return String(lowered[joiner...])
    }

    /// The last word of `text` when it dangles; nil when it does not or cannot be judged.
    static func danglingLastWord(in text: String, language: String,
                                 counts: SentenceEndCounts) throws(SentenceEndCountsError) -> Dangling? {
        let words = QuoteText.words(text)
        guard let last = words.last else { return nil }
        if last.contains(where: \.isNumber) { return nil }
        if words.count > 1, last.first?.isUppercase == true { return nil }
        let key = key(last)
        guard let count = try counts.table(for: language)[key], count.occurrences >= minimumOccurrences,
              Double(count.finals) < maximumFinalRate * Double(count.occurrences) else { return nil }
        return Dangling(word: last, key: key, count: count)
    }
}
