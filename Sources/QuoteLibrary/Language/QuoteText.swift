import Foundation

/// Plain-text helpers shared by the store (unique key) and the gates (words, sentences).
public enum QuoteText {
    /// The unique key of a quote: case and accents folded, punctuation dropped, spaces collapsed,
    /// so "Hope, rises." and "hope rises" are the same quote.
    public static func normalizedKey(_ text: String) -> String {
        words(text).map { $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
            .joined(separator: " ")
    }

    /// The text as space-padded folded words with apostrophes as spaces (" don t give up "), for
    /// matching fixed phrases on word boundaries.
    public static func phraseKey(_ text: String) -> String {
        " " + normalizedKey(text).replacingOccurrences(of: "'", with: " ") + " "
    }

    /// Sentences: split after . ! ? … when followed by space and a letter or opening mark, not
    /// after a common abbreviation. "Wait. Then go." is two; "Dr. Ames came." is one.
    public static func sentences(_ text: String) -> [String] {
        let characters = Array(text.trimmingCharacters(in: .whitespacesAndNewlines))
        var result: [String] = []
        var current = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            current.append(character)
            if ".!?…。".contains(character) {
                var next = index + 1
                while next < characters.count, ".!?…\"”»’)".contains(characters[next]) {
                    current.append(characters[next])
                    next += 1
                }
                var look = next
                while look < characters.count, characters[look].isWhitespace { look += 1 }
                let startsAnother = look > next && look < characters.count
                    && (characters[look].isLetter || "¿¡\"“«".contains(characters[look]))
                let lastWord = words(current).last?.lowercased() ?? ""
                if startsAnother, !(character == "." && abbreviations.contains(lastWord)) {
                    result.append(current.trimmingCharacters(in: .whitespaces))
                    current = ""
                }
                index = next
                continue
            }
            index += 1
        }
        let tail = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !tail.isEmpty { result.append(tail) }
        return result
    }

    static let abbreviations: Set<String> = ["mr", "mrs", "ms", "dr", "st", "sr", "jr", "prof", "vs", "etc", "e.g", "i.e",
                                              "z.b", "bzw", "sra", "sr", "mme", "mlle", "sig", "dott", "dona"]

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
}
