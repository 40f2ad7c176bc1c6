import Foundation
import Testing
@testable import QuoteLibrary

/// The deterministic gate's word check (`RealWords`) on wordfreq's lists: the made-up words the
/// default local model ended accepted lines with are rejected, naming the word; names, numbers
/// and joined words are not; and the good labelled lines and the curated quotes are rarely
/// rejected (figures printed for Sources/QuoteLibrary/README.md, "Real words").
@Suite("Every word of a draft is a word of its language")
struct RealWordsTests {
    static let languages = ["en", "de", "es", "fr", "it", "pt"]
    let gate = DeterministicGate(vocabulary: TestScorer.frequencies)

    func wordCheck(_ text: String, _ language: String) -> GateResult {
        gate.evaluate(text, locale: language).first { $0.gate == .unknownWord }!
    }

    /// Lines SmolLM2 and Gemma 3 270M wrote that the pipeline accepted before this check
    /// (the repo README, "Measured on the real local model").
    @Test(arguments: [
        ("en", "Rachel stepped onto the worn floor of the office, her hands clasped around her knees as she stoodstocked.",
         "stoodstocked"),
        ("en", "It was a cozy evening at the kitchen table with a glass of bourbon and a plate ofalamoak.", "ofalamoak"),
        ("en", "A new challenge with nerves and a smile, this new job felt like a first step towards aaaaaahe.", "aaaaaahe"),
        ("pt", "Pelas ruas, do meu som, do meu amor, do meu poder, ao meu sono, eu voo com obeirado.", "obeirado"),
    ])
    func madeUpWordsOfTheLocalModelAreRejectedByName(language: String, text: String, word: String) {
        let result = wordCheck(text, language)
        #expect(!result.passed)
        #expect(result.reason?.hasPrefix("\"\(word)\" is not a word of \(language)") == true, "\(result)")
        #expect(gate.firstFailure(text, locale: language)?.gate == .unknownWord)
    }

    @Test(arguments: [
        ("en", "Ask Margarethe at the 24-hour bakery on Elm Street for the last loaf of rye."),
        ("en", "Don't let the kettle whistle twice before you pour the tea for Mr Okonkwo."),
        ("fr", "Emballe la théière ébréchée et porte-la jeudi à l'atelier de Mme Duplessis."),
        ("it", "Lega un nastro rosso alla valigia e riconoscila subito sul nastro dei bagagli."),
        ("es", "Toca el timbre de la familia nueva y llévales una olla de lentejas calientes."),
        ("pt", "Remende o buraco da sua calça favorita com um quadrado de veludo laranja."),
        ("de", "Bring Frau Özdemir die 12 Eier und das Rezept für den Zwetschgenkuchen vorbei."),
        ("de", "Opa hat den Korb danebengestellt, und wir sind noch lange auf dem Markt herumgeschlendert."),
        ("de", "Beim Dorffest wagte sich sogar der Pfarrer hinaus, um mitzusingen."),
        ("it", "Vorrei che il pane della nonna profumasse ancora la scala del palazzo."),
        ("fr", "Le dimanche soir, nous valsions dans la cuisine en attendant la tarte aux pommes."),
        ("pt", "Mesmo que o avô tossisse a noite inteira, o rádio ficava ligado no futebol."),
        ("es", "De niños pelábamos las castañas junto a la estufa de leña de la abuela."),
    ])
    func namesNumbersJoinedWordsInflectionsAndCliticsAreWords(language: String, text: String) {
        let result = wordCheck(text, language)
        #expect(result.passed, "\(result)")
    }

    /// A German particle written onto a made-up rest makes no word of it, whichever the particle; nor
    /// does a verb ending after a made-up stem.
    @Test func aParticleOrAVerbEndingMakesNoWordOfAMadeUpStem() {
        let particle = wordCheck("Die Kinder haben am Brunnen den ganzen Nachmittag aufschmerbelt.", "de")
        #expect(particle.reason?.hasPrefix("\"aufschmerbelt\" is not a word of de") == true, "\(particle)")
        #expect(!wordCheck("Die Kinder haben am Brunnen den ganzen Nachmittag mitschmerbelt.", "de").passed)
        let ending = wordCheck("Ogni sera i pescatori sgrumbolavano le reti sul molo del porto.", "it")
        #expect(ending.reason?.hasPrefix("\"sgrumbolavano\" is not a word of it") == true, "\(ending)")
    }

    /// The verb endings stop where the inflection rule's reach ends (its last 2 letters), and every
    /// infinitive ending has endings.
    @Test func verbEndingsAreThreeLettersOrMore() {
        #expect(Set(RealWords.verbEndings.keys) == ["es", "fr", "it", "pt"])
        for (language, classes) in RealWords.verbEndings {
            #expect(classes.count == 3, "\(language)")
            for (infinitive, endings) in classes {
                #expect(!endings.isEmpty && endings.allSatisfy { $0.count >= 3 }, "\(language) \(infinitive)")
            }
        }
    }

    @Test func aDifferentLanguagesWordAndAMissingListAreNamed() throws {
        #expect(wordCheck("Knead the dough until the kitchen smells like the bakery of Schnickelfritz.", "en").passed)
        let french = wordCheck("Knead the dough until the kitchen smells like a boulangerie gourmandissime.", "en")
        #expect(french.reason?.hasPrefix("\"gourmandissime\" is not a word of en") == true, "\(french)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("real-words-\(UUID().uuidString)")
        let missing = DeterministicGate(vocabulary: WordFrequencies(directory: folder.path))
            .evaluate("Knead the dough until the kitchen smells like the bakery.", locale: "en").first { $0.gate == .unknownWord }!
        #expect(!missing.passed)
        #expect(missing.reason == "the words cannot be checked: word frequencies \(folder.path)/en.txt: no such file "
                + "(run `make word-frequencies`)")
        let unchecked = DeterministicGate().evaluate("Knead the dough.", locale: "en").first { $0.gate == .unknownWord }!
        #expect(unchecked.passed && unchecked.reason == "not checked: no word lists given")
    }

    /// False rejections, measured on every good labelled line (both halves: the check has no
    /// fitted part) and on every curated quote; the floors sit just under what was measured.
    @Test func goodLinesAndCuratedQuotesAreRarelyRejected() throws {
        let lines = JudgeCalibrationTests.lines
        var rejected = 0, total = 0
        for language in Self.languages {
            let good = try lines.all(language, .good)
            let misses = good.compactMap { line -> String? in
                let result = wordCheck(line, language)
                return result.passed ? nil : result.reason
            }
            print("real words \(language): \(good.count - misses.count)/\(good.count) good lines accepted; rejected: "
                  + misses.joined(separator: "; "))
            #expect(Double(misses.count) <= 0.05 * Double(good.count), "\(language): \(misses)")
            rejected += misses.count
            total += good.count
        }
        print("real words, all: \(total - rejected)/\(total) good lines accepted")
        #expect(Double(total - rejected) >= 0.985 * Double(total))
        let catalog = try CuratedCatalog.entries()
        let catalogMisses = catalog.compactMap { entry -> String? in
            let result = wordCheck(entry.text, SupportedLocale.language(of: entry.locale))
            return result.passed ? nil : "[\(entry.locale)] \(result.reason ?? "")"
        }
        print("real words, curated: \(catalog.count - catalogMisses.count)/\(catalog.count) accepted; rejected: "
              + catalogMisses.joined(separator: "; "))
        #expect(Double(catalogMisses.count) <= 0.01 * Double(catalog.count), "\(catalogMisses)")
    }
}
