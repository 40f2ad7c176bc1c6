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
///   inflections let one made-up blend of two words in thirty pass (README, "Real words");
/// - in Spanish, French, Italian and Portuguese, it is a verb form: a stem, of 3 letters or more,
///   whose infinitive is listed, and an ending of that verb class of 3 letters or more
///   (`verbEndings`; "profumasse" from "profumare", "valsions" from "valser"): the lists hold
///   the common forms of common verbs, and a line may use a rare tense of a rarer verb.
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

    /// Verb endings of three letters or more, folded, by the ending of the infinitive they replace ("ar:"): those of
    /// every tense and mood, as grammars list them (shorter ones are the inflection rule's).
    static let verbEndings = verbEndingTable.mapValues(endingClasses)
    private static let verbEndingTable: [String: String] = [
        "es": """
            ar: amos ais aba abas abamos abais aban aste asteis aron are aras ara aremos areis aran aria arias
                ariamos ariais arian emos eis aramos arais ase ases asemos aseis asen ando ado ada ados adas
            er: emos eis ias iamos iais ian iste imos isteis ieron ere eras era eremos ereis eran eria erias
                eriamos eriais erian amos ais iera ieras ieramos ierais ieran iese ieses iesemos ieseis iesen iendo
                ido ida idos idas
            ir: imos ias iamos iais ian iste isteis ieron ire iras ira iremos ireis iran iria irias iriamos
                iriais irian amos ais iera ieras ieramos ierais ieran iese ieses iesemos ieseis iesen iendo ido ida
                idos idas
            """,
        "fr": """
            er: ons ent ais ait ions iez aient ames ates erent erai eras era erons erez eront erais erait erions
                eriez eraient asse asses assions assiez assent ant ees
            ir: issons issez issent issais issait issions issiez issaient imes ites irent irai iras ira irons
                irez iront irais irait irions iriez iraient isse isses issant ies
            re: ons ent ais ait ions iez aient imes ites irent rai ras rons rez ront rais rait rions riez raient
                isse isses ant ues
            """,
        "it": """
            are: iamo ate ano avo avi ava avamo avate avano asti ammo aste arono ero erai era eremo erete eranno
                erei eresti erebbe eremmo ereste erebbero ino iate assi asse assimo assero ando ato ata ati ante
                anti
            ere: iamo ete ono evo evi eva evamo evate evano esti emmo este erono etti ette ettero ero erai era
                eremo erete eranno erei eresti erebbe eremmo ereste erebbero iate ano essi esse essimo essero endo
                uto uta uti ute ente enti
            ire: iamo ite ono isco isci isce iscono ivo ivi iva ivamo ivate ivano isti immo iste irono iro irai
                ira iremo irete iranno irei iresti irebbe iremmo ireste irebbero isca iscano iate ano issi isse
                issimo issero endo ito ita iti ente enti
            """,
        "pt": """
            ar: amos ais ava avas avamos aveis avam aste astes aram ara aras aramos areis arei aremos arao aria
                arias ariamos arieis ariam emos eis asse asses assemos asseis assem ares armos ardes arem ando ado
                ada ados adas
            er: emos eis ias iamos ieis iam este estes eram era eras eramos ereis erei eremos erao eria erias
                eriamos erieis eriam amos ais esse esses essemos esseis essem eres ermos erdes erem endo ido ida
                idos idas
            ir: imos ias iamos ieis iam iste istes iram ira iras iramos ireis irei iremos irao iria irias
                iriamos irieis iriam amos ais isse isses issemos isseis issem ires irmos irdes irem indo ido ida
                idos idas
            """,
    ]

    /// "ar: amos ais … er: emos …" as (infinitive ending, its endings) pairs.
    static func endingClasses(_ text: String) -> [(infinitive: String, endings: [Substring])] {
        var classes: [(infinitive: String, endings: [Substring])] = []
        for token in text.split(whereSeparator: \.isWhitespace) {
            if token.hasSuffix(":") {
                classes.append((String(token.dropLast()), []))
            } else {
                classes[classes.count - 1].endings.append(token)
            }
        }
        return classes
    }

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
        for (infinitive, endings) in verbEndings[language] ?? [] {
            for ending in endings where part.count - ending.count >= 3 && part.hasSuffix(ending) {
                if table[String(part.dropLast(ending.count)) + infinitive] != nil { return true }
            }
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
