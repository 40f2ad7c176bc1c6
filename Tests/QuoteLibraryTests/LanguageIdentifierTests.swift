import Foundation
import PluginFixtures
import Testing
@testable import QuoteLibrary

/// The labelled set from the GNOME user help (scripts/language-eval-set.py, written by
/// `make fixtures`): sentences and 4–7-word spans in the six languages and in 14 others.
struct HelpSentence {
    let half: String
    let label: String
    let folder: String
    let kind: String
    let text: String

    static let path = PackagePaths.root + "/.build/fixtures/language/help-sentences.tsv"

    static func load() throws -> [HelpSentence] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst()
        return try lines.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 else { throw LabelledSetError(line: String(line)) }
            return HelpSentence(half: fields[0], label: fields[1], folder: fields[2], kind: fields[3], text: fields[4])
        }
    }

    /// The target each text counts towards: sentences of 8+ words, 4–7-word sentences, or 4–7-word
    /// spans; shorter sentences are not a target.
    var bucket: String? {
        let words = QuoteText.words(text).count
        if words >= 8 { return kind == "sentence" ? "8+ words" : nil }
        return words >= 4 ? "4–7 words, \(kind)s" : nil
    }

    /// The six; `other` with a profile; Galician apart: the profiles have none, so it reads as
    /// Portuguese or Spanish (measured and reported, not a target).
    var group: String { folder == "gl" ? "Galician" : label == LanguageIdentifier.other ? "other" : "six" }
}

struct LabelledSetError: Error { let line: String }

/// Accuracy per bucket and per group (the six, or `other`), with the misses for the log.
struct LanguageFigures {
    var right: [String: Int] = [:]
    var total: [String: Int] = [:]
    var misses: [String] = []

    init(_ samples: [HelpSentence], identifier: LanguageIdentifier) throws {
        for sample in samples {
            guard let bucket = sample.bucket else { continue }
            let group = "\(sample.group), \(bucket)"
            let folder = "\(sample.folder), \(bucket)"
            let answer = try identifier.identify(sample.text).language
            for key in [group, folder] { total[key, default: 0] += 1 }
            if answer == sample.label {
                for key in [group, folder] { right[key, default: 0] += 1 }
            } else {
                misses.append("\(sample.folder)→\(answer ?? "nil"): \(sample.text)")
            }
        }
    }

    func accuracy(_ key: String) -> Double { Double(right[key, default: 0]) / Double(max(total[key, default: 0], 1)) }

    var report: String {
        total.keys.sorted().map { "\($0): \(right[$0, default: 0])/\(total[$0]!) = \(String(format: "%.4f", accuracy($0)))" }
            .joined(separator: "\n")
    }

    static let targets = ["six, 8+ words", "six, 4–7 words, sentences", "six, 4–7 words, spans",
                          "other, 8+ words", "other, 4–7 words, sentences", "other, 4–7 words, spans"]

    /// Mean accuracy over the targets, for comparing settings on the tuning half.
    var targetMean: Double { Self.targets.map(accuracy).reduce(0, +) / Double(Self.targets.count) }
}

@Suite("Language identification", .serialized)
struct LanguageIdentifierTests {
    static let profiles = URL(fileURLWithPath: PackagePaths.root).appendingPathComponent(LanguageProfiles.relativePath)

    @Test func heldOutHelpSentencesMeetTheTargets() throws {
        let heldOut = try HelpSentence.load().filter { $0.half == "held-out" }
        let figures = try LanguageFigures(heldOut, identifier: .shared)
        print("language identification, held-out help sentences:\n\(figures.report)")
        print("misses (\(figures.misses.count)):\n" + figures.misses.prefix(80).joined(separator: "\n"))
        #expect(figures.total["six, 8+ words", default: 0] >= 2000)
        #expect(figures.total["six, 4–7 words, spans", default: 0] >= 2000)
        #expect(figures.accuracy("six, 8+ words") >= 0.995)
        // The aim is ≥ 95% on 4–7 words; with the word evidence the held-out half reaches more
        // (README), and these floors sit just under what it measured so the figures cannot slip.
        #expect(figures.accuracy("six, 4–7 words, sentences") >= 0.99)
        #expect(figures.accuracy("six, 4–7 words, spans") >= 0.985)
        #expect(figures.accuracy("other, 8+ words") >= 0.995)
        #expect(figures.accuracy("other, 4–7 words, sentences") >= 0.99)
        #expect(figures.accuracy("other, 4–7 words, spans") >= 0.995)
        // Dutch is never accepted as German.
        #expect(!figures.misses.contains { $0.hasPrefix("nl→de") }, "\(figures.misses.filter { $0.hasPrefix("nl→") })")
    }

    @Test func tunedConstantsAreTheBestOfTheirNeighboursOnTheTuningHalf() throws {
        // The smoothing and the word evidence's weight were chosen on this half only; moving either
        // way must not do better.
        let tuning = try HelpSentence.load().filter { $0.half == "tune" }
        let (smoothing, weight) = (LanguageIdentifier.smoothing, LanguageIdentifier.wordWeight)
        func mean(_ smoothing: Double, _ weight: Double) throws -> Double {
            try LanguageFigures(tuning, identifier: LanguageIdentifier(profilesAt: Self.profiles, smoothing: smoothing,
                                                                      wordWeight: weight)).targetMean
        }
        let chosen = try mean(smoothing, weight)
        let neighbours = [(smoothing / 4, weight), (smoothing * 4, weight), (smoothing, weight * 2 / 3), (smoothing, weight * 4 / 3)]
        let means = try neighbours.map { ($0, try mean($0.0, $0.1)) }
        print("tuning half, mean of the six targets: chosen \(chosen); (smoothing, word weight) neighbours: \(means)")
        #expect(means.allSatisfy { $0.1 <= chosen + 1e-9 }, "\(means)")
        // The word evidence is what lifts short texts: without it the tuning half does worse.
        #expect(try mean(smoothing, 0) < chosen - 0.005)
    }

    @Test func handWrittenQuoteLikeLinesAreRecognised() throws {
        // A regression set of everyday lines written for the earlier identifier (not for tuning this
        // one); the n-grams alone missed four short Portuguese lines, the word evidence none.
        let all = LanguageSamples.all
        #expect(all.count == 300)
        var misses: [String] = []
        for sample in all {
            let guess = try LanguageIdentifier.shared.identify(sample.text)
            if guess.language != sample.language { misses.append("\(sample.language)→\(guess.language ?? "nil"): \(sample.text)") }
        }
        print("hand-written lines: \(all.count - misses.count)/\(all.count)\n" + misses.joined(separator: "\n"))
        #expect(misses.isEmpty, "\(misses)")
    }

    @Test func onlyTextWithoutLettersGetsNoAnswer() throws {
        for text in ["", "   ", "12345 67", "🙂🙂🎉", "--- !!! 3.14"] {
            #expect(try LanguageIdentifier.shared.identify(text).language == nil, "\(text)")
        }
        // Letters of scripts outside the six, and of languages outside them, answer `other`.
        let others = ["Привет, как у тебя дела сегодня?": "ru", "今日はとても良い天気ですね。": "ja",
                      "Ik fiets elke ochtend langs de rivier naar mijn werk.": "nl",
                      "Jag cyklar varje morgon längs floden till jobbet.": "sv"]
        for (text, closest) in others {
            let guess = try LanguageIdentifier.shared.identify(text)
            #expect(guess.language == LanguageIdentifier.other && guess.closest == closest, "\(text): \(guess)")
        }
        #expect(try LanguageIdentifier.shared.identify("ሰላም ለዓለም").language == LanguageIdentifier.other)
    }

    @Test func guessCarriesPosteriorsOfTheSixAndOther() throws {
        let guess = try LanguageIdentifier.shared.identify("O gato dorme ao sol na janela da cozinha.")
        #expect(guess.language == "pt" && guess.closest == "pt")
        #expect(Set(guess.scores.keys) == Set(LanguageProfiles.languages + [LanguageIdentifier.other]))
        #expect(abs(guess.scores.values.reduce(0, +) - 1) < 1e-9)
        #expect(guess.confidence > 0.5 && guess.confidence <= 1)
    }

    @Test func missingOrCorruptProfilesAreErrorsNamingTheFile() throws {
        let folder = try TemporaryFolder()
        let missing = folder.path("none.bin")
        let error = #expect(throws: LanguageProfilesError.self) { try LanguageIdentifier(profilesAt: URL(fileURLWithPath: missing)).identify("Hallo Welt") }
        #expect(error?.description.contains(missing) == true && error?.description.contains("missing") == true)

        let good = try Data(contentsOf: Self.profiles)
        var flipped = good
        flipped[good.count / 2] ^= 0x40
        let cases: [(String, Data, String)] = [
            ("truncated.bin", good.prefix(good.count - 100), "truncated"),
            ("flipped.bin", flipped, "checksum"),
            ("text.bin", Data("not profiles".utf8), "TLANGID1"),
        ]
        for (name, data, problem) in cases {
            let path = folder.path(name)
            try data.write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: LanguageProfilesError.self) { try LanguageIdentifier(profilesAt: URL(fileURLWithPath: path)).load() }
            #expect(error?.path == path && error?.problem.contains(problem) == true, "\(String(describing: error))")
        }

        // Good profiles without their word evidence beside them, then with a malformed one.
        let profiles = folder.path("language-profiles.bin")
        try good.write(to: URL(fileURLWithPath: profiles))
        let words = folder.path(LanguageWords.fileName)
        let noWords = #expect(throws: LanguageProfilesError.self) { try LanguageIdentifier(profilesAt: URL(fileURLWithPath: profiles)).load() }
        #expect(noWords?.path == words && noWords?.problem.contains("missing") == true, "\(String(describing: noWords))")
        try Data("tandem-language-words 1 450\npt 700 não\nxx 650 word\n".utf8).write(to: URL(fileURLWithPath: words))
        let badLine = #expect(throws: LanguageProfilesError.self) { try LanguageIdentifier(profilesAt: URL(fileURLWithPath: profiles)).load() }
        #expect(badLine?.path == words && badLine?.problem.contains("line 3") == true, "\(String(describing: badLine))")
    }

    @Test func theGateRejectsADraftInALanguageOutsideTheSix() {
        let drafts = ["de": "Mijn grootmoeder bewaart haar knopen in een oud blik op de keukenkast.",
                      "es": "La meva àvia guarda els botons en una vella llauna de galetes a la cuina.",
                      "it": "Bunica mea își păstrează nasturii într-o cutie veche de biscuiți din bucătărie."]
        for (locale, text) in drafts {
            let language = DeterministicGate().evaluate(text, locale: locale).first { $0.gate == .language }!
            #expect(!language.passed && language.reason?.contains("another language") == true, "\(locale): \(language)")
        }
    }

    @Test func theGateFailsWhenTheProfilesCannotBeLoaded() throws {
        let folder = try TemporaryFolder()
        let gate = DeterministicGate(identifier: LanguageIdentifier(profilesAt: URL(fileURLWithPath: folder.path("none.bin"))))
        let language = gate.evaluate(RejectionFixtures.valid["en"]!, locale: "en").first { $0.gate == .language }!
        #expect(!language.passed)
        #expect(language.reason?.contains(folder.path("none.bin")) == true, "\(language)")
    }

    @Test func loadingIsCheapAndIdentificationTakesMicroseconds() throws {
        let clock = ContinuousClock()
        let identifier = LanguageIdentifier(profilesAt: Self.profiles)
        let load = clock.measure { try? identifier.load() }
        let texts = LanguageSamples.all.map(\.text)
        var answered = 0
        let run = try clock.measure {
            for _ in 0..<10 { for text in texts where try identifier.identify(text).language != nil { answered += 1 } }
        }
        let perSentence = run / (10 * texts.count)
        print("language profiles load: \(load); identification: \(perSentence) per sentence (mean over \(10 * texts.count))")
        #expect(answered == 10 * texts.count)
        // The load reads the profiles (10 ms) and parses the 113,761 word–language pairs (most of it).
        #expect(load < .seconds(1) && perSentence < .microseconds(500))
    }
}
