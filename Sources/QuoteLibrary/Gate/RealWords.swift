import Foundation

/// The deterministic gate's word check (Sources/QuoteLibrary/README.md, "Real words"): every word
/// of a draft must be a word of its language, looked up in wordfreq's list of that language (the
/// distinctiveness tables, `WordFrequencies`), so that a line ending in a made-up word
/// ("… as she stoodstocked.") is not accepted.
///
/// Not looked up: a word with a digit; a capitalised word after the first (a name: "Rina",
/// "Recife"; in German also every noun, so German compounds are not checked). Looked up part by
/// part: words joined by a hyphen or an apostrophe ("porte-la", "l'écharpe", "don't"). A part
/// the list lacks still counts as a word when
/// - it is an inflection of a listed word: at least 6 letters, no letter three times in a row,
///   and some listed word is the same but for the last 2 letters and at most 4 letters in their
///   place (the lists hold common forms; "remende" from "remendar", "tiédis" from "tiède");
/// - in Spanish and Italian, it is a listed word (or an inflection of one) with one or two
///   pronouns attached, as those languages write them ("llévales", "riconoscila", "dámelo");
/// - in German, it is a separable verb's particle written onto a listed word, with "zu" between
///   them or not ("mittanzten", "danebengestellt", "mitzudrehen"): German joins them, and the
///   lists hold few such forms. The rest must be listed itself, not an inflection: allowing
///   inflections let one made-up blend of two words in thirty pass (README, "Real words").
enum RealWords {
    static let inflectionMinimumLetters = 6
    static let inflectionEndingLetters = 2
    static let inflectionReplacementLetters = 4

    /// Enclitic pronouns written onto the verb: the last one, and the one before it.
    static let enclitics: [String: (last: [String], before: [String])] = [
        "es": (["los", "las", "les", "nos", "lo", "la", "le", "me", "te", "se", "os"], ["me", "te", "se", "nos", "os", "le"]),
        "it": (["gli", "lo", "la", "li", "le", "ne", "mi", "ti", "si", "ci", "vi"], ["me", "te", "se", "ce", "ve", "glie"]),
    ]

    /// The particles of German separable verbs (folded, as the parts are looked up), a closed class.
    static let separablePrefixes: [String: [String]] = [
        "de": ("ab an auf aus bei dabei dafur dagegen daher dahin daneben dar davon dazu dazwischen durch ein empor "
               + "entgegen entlang fort gegenuber her herab heran herauf heraus herbei herein heruber herum herunter "
               + "hervor hin hinab hinauf hinaus hinein hinuber hinunter los mit nach nieder um vor voran voraus vorbei "
               + "voruber vorweg weg weiter wieder zu zuruck zusammen").split(separator: " ").map(String.init),
    ]

    /// The first word of `text` that is not a word of `language`, as written; nil when every word is.
    static func firstUnknown(in text: String, language: String, vocabulary: WordFrequencies) throws(WordFrequencyError) -> String? {
        let table = try vocabulary.table(for: language)
        var sorted: [String]?
        for (index, word) in QuoteText.words(text).enumerated() {
            if word.contains(where: \.isNumber) { continue }
            if index > 0, word.first?.isUppercase == true { continue }
            let parts = word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                .split(whereSeparator: { $0 == "'" || $0 == "-" }).map(String.init)
            for part in parts where table[part] == nil {
                if sorted == nil { sorted = try vocabulary.sortedWords(for: language) }
                guard isWord(part, language: language, table: table, sorted: sorted!) else { return word }
            }
        }
        return nil
    }

    static func isWord(_ part: String, language: String, table: [String: Double], sorted: [String]) -> Bool {
        if table[part] != nil || isInflection(part, sorted: sorted) { return true }
        for prefix in separablePrefixes[language] ?? [] where part.hasPrefix(prefix) {
            let rest = part.dropFirst(prefix.count)
            let verb = rest.hasPrefix("zu") && rest.count >= 5 ? rest.dropFirst(2) : rest
            if rest.count >= 3, table[String(rest)] != nil || table[String(verb)] != nil { return true }
        }
        guard let pronouns = enclitics[language] else { return false }
        func known(_ stem: String) -> Bool { table[stem] != nil || isInflection(stem, sorted: sorted) }
        for last in pronouns.last where part.count - last.count >= 2 && part.hasSuffix(last) {
            let stem = String(part.dropLast(last.count))
            if known(stem) { return true }
            for before in pronouns.before where stem.count - before.count >= 2 && stem.hasSuffix(before) {
                if known(String(stem.dropLast(before.count))) { return true }
            }
        }
        return false
    }

    static func isInflection(_ part: String, sorted: [String]) -> Bool {
        let letters = Array(part)
        guard letters.count >= inflectionMinimumLetters else { return false }
        if letters.indices.dropFirst(2).contains(where: { letters[$0] == letters[$0 - 1] && letters[$0] == letters[$0 - 2] }) {
            return false
        }
        let stem = String(letters.dropLast(inflectionEndingLetters))
        let longest = stem.count + inflectionReplacementLetters
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < stem { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < sorted.count, sorted[index].hasPrefix(stem) {
            if sorted[index].count <= longest { return true }
            index += 1
        }
        return false
    }
}
