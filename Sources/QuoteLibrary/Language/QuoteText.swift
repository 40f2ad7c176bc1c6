import Foundation

/// Plain-text helpers shared by the store (unique key) and the gates (words, sentences).
public enum QuoteText {
    /// The unique key of a quote: case and accents folded, punctuation dropped, spaces collapsed,
    /// so "Hope, rises." and "hope rises" are the same quote.
    public static func normalizedKey(_ text: String) -> String {
        words(text).map { $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
            .joined(separator: " ")
    }

    /// Words: maximal runs of letters, digits and inner apostrophes or hyphens ("don't", "l'eau"
    /// stays one word; "— Name" yields "Name").
    public static func words(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if (character == "'" || character == "’" || character == "-"), !current.isEmpty,
                      index + 1 < characters.count, characters[index + 1].isLetter {
                current.append(character == "’" ? "'" : character)
            } else if !current.isEmpty {
                result.append(current)
                current = ""
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// Lower-cased words with the part before an apostrophe split off ("l'eau" → "l'", "eau";
    /// "don't" → "don'", "t"), so elisions and contractions can be looked up as function words.
    public static func lowercasedTokens(_ text: String) -> [String] {
        words(text.lowercased()).flatMap { word -> [String] in
            guard let apostrophe = word.firstIndex(of: "'") else { return [word] }
            let head = String(word[...apostrophe])
            let tail = String(word[word.index(after: apostrophe)...])
            return tail.isEmpty ? [head] : [head, tail]
        }
    }
}
