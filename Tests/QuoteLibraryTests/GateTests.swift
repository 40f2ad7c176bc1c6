import Foundation
import Testing
@testable import QuoteLibrary

@Suite("Deterministic gate, novelty and the rejection fixtures")
struct GateTests {
    /// A library holding the near-duplicate originals, embedded with the lexical embedder.
    static func libraryWithStoredOriginals(_ folder: TemporaryFolder) async throws -> QuoteStore {
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let embedder = LexicalEmbedder()
        for (language, text) in RejectionFixtures.stored {
            var run = GenerationRun(startedAt: "2026-01-01T00:00:00Z", locale: language, budget: "foreground",
                                    readiness: FixedReadiness.allAvailable.report)
            run.branch = .accepted
            _ = try store.persist(GeneratedQuote(text: text, locale: language, tags: QuoteTags(),
                                                 scores: QuoteScores(judge: JudgeScores(quality: 7, originality: 7, warmth: 7, overall: 7),
                                                                     judgeSource: "model", distinctiveness: 6),
                                                 modelVersion: "fixture",
                                                 novelty: NoveltyProof(model: embedder.model, vector: try await embedder.embed(text),
                                                                       threshold: NoveltyCalibration.uncalibratedThreshold,
                                                                       comparedThrough: try store.highestQuoteID())),
                                  run: run)
        }
        return store
    }

    /// The markup check's stray characters stop at what lines are made of: a symbol below U+2000
    /// ("°", "©") is the line's business; the reason names the code point of one above.
    @Test func aSymbolOfOrdinaryTextIsNoStrayCharacter() {
        let gate = DeterministicGate()
        let markup = { (text: String) in gate.evaluate(text, locale: "en").first { $0.gate == .markup }! }
        #expect(markup("Heat the oven to 200 °C and bake a loaf for the neighbours upstairs tonight.").passed)
        let stray = markup("Heat the oven to 200 \u{2103} and bake a loaf for the neighbours upstairs tonight.")
        #expect(!stray.passed && stray.reason?.hasPrefix("contains U+2103, a character that is no letter") == true, "\(stray)")
    }

    @Test func validLinesPassEveryGateInAllSixLanguages() async throws {
        let folder = try TemporaryFolder()
        let checker = QuoteChecker(store: try await Self.libraryWithStoredOriginals(folder), embedder: LexicalEmbedder(),
                                   distinctiveness: TestScorer.scorer)
        for (language, text) in RejectionFixtures.valid {
            let report = await checker.check(text, locale: language)
            #expect(report.accepted, "\(language): \(report.gates.filter { !$0.passed })")
            #expect(report.detectedLanguage == language)
        }
    }

    @Test func everyRejectionFixtureIsRejectedByTheExpectedGate() async throws {
        let folder = try TemporaryFolder()
        let checker = QuoteChecker(store: try await Self.libraryWithStoredOriginals(folder), embedder: LexicalEmbedder(),
                                   distinctiveness: TestScorer.scorer)
        let fixtures = RejectionFixtures.all
        #expect(fixtures.count == 48)
        var wrong: [String] = []
        for fixture in fixtures {
            let report = await checker.check(fixture.text, locale: fixture.language)
            let first = report.gates.first { !$0.passed }
            if report.accepted || first?.gate != fixture.expectedGate {
                wrong.append("\(fixture.language) \(fixture.kind): expected \(fixture.expectedGate), got "
                             + "\(first.map { "\($0.gate) (\($0.reason ?? ""))" } ?? "accepted")")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
    }

    @Test(arguments: [
        ("", GateName.empty), ("…!?", .empty),
        ("Here is a quote about the morning bus and the driver who waves at everyone.", .promptFragment),
        ("Quote: the morning bus driver waves at every child who climbs aboard today.", .promptFragment),
        ("In 12 words: the morning bus driver waves at every child who climbs aboard.", .promptFragment),
        ("\"The morning bus driver waves at every child who climbs aboard today.\"", .wrappingQuotes),
        ("«Le chauffeur du bus du matin salue chaque enfant qui monte à bord.»", .wrappingQuotes),
        ("The morning bus driver **waves** at every child who climbs aboard today.", .markup),
        ("The morning bus driver waves at every child who climbs aboard #kindness today.", .markup),
        ("The morning bus driver waves at every child who climbs aboard today 🚌.", .markup),
        ("The morning bus driver waves at every child\nwho climbs aboard today.", .markup),
        ("Tipp \u{2FFF} der letzten Tage aus dem Kinderzimmer, die Kleinen schlafen gern im Wohnzimmer.", .markup),
        ("The morning bus driver waves at every child who climbs aboard \u{E000} today.", .markup),
        ("The morning bus driver waves at every child who climbs aboard at \u{2318} dawn.", .markup),
        ("- The morning bus driver waves at every child who climbs aboard today.", .markup),
        ("The morning bus driver waves at every child who climbs aboard today. (Mark Twain)", .attribution),
        ("The morning bus driver waves at every child who climbs aboard today. (Grandma Rose, 1962)", .attribution),
        ("The morning bus driver waves at every child who climbs aboard today. (Eleven words, present tense.)", .promptFragment),
        ("The morning bus driver waves at every child who climbs aboard today. (Hope that works!)", .promptFragment),
        ("Le chauffeur du bus du matin salue chaque enfant qui monte à bord. (concret, sans exclamation)", .promptFragment),
        ("The morning bus driver waves at every child who climbs aboard today. ~ Anonymous", .attribution),
        ("The morning bus driver waves at every child who climbs aboard today - Seneca", .attribution),
        ("The morning bus driver is convinced that every child who climbs aboard brings the sun.", .attribution),
        ("Legend has it that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("\"Mind the step,\" Granny would mutter as the morning bus pulled up at the corner.", .attribution),
        ("For my grandfather, the morning bus driver is the only man in town who keeps proper time.", .attribution),
        ("The fortune cookie promised me a morning bus driver who waves at every child aboard.", .attribution),
        ("The timetable at the stop warns, in pencil, that the morning bus driver waves at every child.", .attribution),
        ("From my grandmother I learned that the morning bus driver waves at every child aboard.", .attribution),
        ("The sign at the bus stop reads: “The morning bus driver waves at every child who climbs aboard.”", .attribution),
        ("The bus company's leaflet promises a morning driver who waves at every child aboard.", .attribution),
        ("The song on the radio keeps reminding us that the morning bus driver waves at every child.", .attribution),
        ("Rumour has it that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The timetable assures passengers that the morning bus driver waves at every child aboard.", .attribution),
        ("Old commuters reckon the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("In my father's view, the morning bus driver is the only man in town who keeps proper time.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, according to my aunt.", .attribution),
        ("The morning bus driver is the only man in town who keeps proper time, in my aunt's view.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard — any old commuter knows that.", .attribution),
        ("The morning bus driver waves at every child aboard, as my aunt is fond of saying.", .attribution),
        ("The old conductor is of the opinion that the morning bus driver waves at every child aboard.", .attribution),
        ("Someone has carved into the bus shelter bench: the morning driver waves at every child.", .attribution),
        ("Sunshine all week, announces the timetable app, so the morning bus driver will be waving.", .attribution),
        ("Wave at the morning bus driver when you climb aboard — Gran repeats it every single day.", .attribution),
        ("Everyone on our street repeats that the morning bus driver waves at every child aboard.", .attribution),
        ("Old commuters will tell you the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("As every commuter knows, the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The timetable app insists the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The morning bus driver, insists the old conductor, waves at every child who climbs aboard.", .attribution),
        ("Old commuters like to remind you that the morning bus driver waves at every child aboard.", .attribution),
        ("The conductor teaches every child on the bus that the morning driver waves back.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, or so they say.", .attribution),
        ("The morning bus driver, they say in our village, waves at every child who climbs aboard.", .attribution),
        ("The timetable app recommends waving at the morning bus driver when you climb aboard.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, in the words of my aunt.", .attribution),
        ("The conductor will explain that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("Old commuters say the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, swears the old conductor.", .attribution),
        ("I heard at the depot that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("Apparently the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The old conductor never tires of reminding us that the morning bus driver waves at every child.", .attribution),
        ("To my aunt, the morning bus driver is the only man in town who keeps proper time.", .attribution),
        ("Ask any commuter and they'll tell you the morning bus driver waves at every child aboard.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, according to the timetable.", .attribution),
        ("There's an old saying that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("My horoscope tells me the morning bus driver will wave at every child who climbs aboard.", .attribution),
        ("In Gran's world, the morning bus driver is the only man in town who keeps proper time.", .attribution),
        ("The morning bus driver, in the words of my aunt, waves at every child who climbs aboard.", .attribution),
        ("The conductor's theory is that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("Our teacher drilled it into us that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("Tradition has it that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("I'm told that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The regulars joke the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The passengers all agree that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The passengers all agree: the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The morning bus driver, admits my aunt, waves at every child who climbs aboard.", .attribution),
        ("The morning bus driver is the kindest man in town, at least for my aunt.", .attribution),
        ("Old commuters have long held that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, as the old conductors keep repeating.", .attribution),
        ("The morning bus driver, the conductor told me, waves at every child who climbs aboard.", .attribution),
        ("They say in our village the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("Ask any commuter and they'll say the morning bus driver waves at every child aboard.", .attribution),
        ("The morning bus driver, apparently, waves at every child who climbs aboard.", .attribution),
        ("The conductor has a theory: the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, the timetable sign promises.", .attribution),
        ("The conductor's favourite line was that the morning bus driver waves at every child aboard.", .attribution),
        ("My grandmother always said: the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("Word at the depot is that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("\"Mind the gap, children!\" shouts the morning bus driver at every child who climbs aboard.", .attribution),
        ("The old conductors are adamant: the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, or so the conductors would like us to think.", .attribution),
        ("Word is the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, as far as my aunt is concerned.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, if you ask my aunt.", .attribution),
        ("Everyone at the depot believes the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, my aunt told me at the stop.", .attribution),
        ("The morning bus driver, to hear the conductors tell it, waves at every child who climbs aboard.", .attribution),
        ("The old conductor swears blind the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("Gran taught me to always wave at the morning bus driver when I climb aboard.", .attribution),
        ("Wave at the morning bus driver when you climb aboard — a tip my aunt swears by.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, believe the old conductors.", .attribution),
        ("The song on the bus radio keeps promising that the morning driver waves at every child.", .attribution),
        ("The morning bus driver waves at every child aboard, old Reg at the depot will tell you.", .attribution),
        ("The morning bus driver, the old conductor believed, waves at every child who climbs aboard.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, goes the joke at the depot.", .attribution),
        ("Allegedly, the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("If the timetable is to be believed, the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("A man at the stop assured me the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("Grandad kept repeating that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, at least according to my aunt.", .attribution),
        ("The conductors have an unwritten rule: the morning bus driver waves at every child aboard.", .attribution),
        ("A study in the local paper found that the morning bus driver waves at every child aboard.", .attribution),
        ("The morning bus driver waves at every child aboard, or so the regulars have long believed.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard, the old conductors insist.", .attribution),
        ("The morning bus driver, in the conductor's experience, waves at every child who climbs aboard.", .attribution),
        ("The morning bus driver waves at every child who climbs aboard — at least, that's Gran's theory.", .attribution),
        ("Wave at the morning bus driver when you climb aboard — a rule my aunt lived by.", .attribution),
        ("The whole village has long believed the morning bus driver waves at every child aboard.", .attribution),
        ("There's a belief among commuters that the morning bus driver waves at every child aboard.", .attribution),
        ("The morning bus driver, one old conductor once explained to me, waves at every child aboard.", .attribution),
        ("An old proverb holds that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("The timetable leaflet states that the morning bus driver waves at every child who climbs aboard.", .attribution),
        ("Dad taught me you should always wave at the morning bus driver when you climb aboard.", .attribution),
        ("The morning bus driver waves at every child aboard, runs the motto on the depot wall.", .attribution),
        ("The morning bus driver waves at every child aboard, or so the regulars keep telling me.", .attribution),
        ("Tageszeile – the morning bus driver waves at every child who climbs aboard.", .promptFragment),
        ("Today's line – the morning bus driver waves at every child who climbs aboard.", .promptFragment),
        ("Line of the day - the morning bus driver waves at every child who climbs aboard.", .promptFragment),
        ("Suggestion – The morning bus driver waves at every child who climbs aboard.", .promptFragment),
        ("Final version — The morning bus driver waves at every child who climbs aboard.", .promptFragment),
        ("Quote of the Day: the morning bus driver waves at every child who climbs aboard.", .promptFragment),
        ("Another version, a little warmer: the morning bus driver waves at every child who climbs aboard.", .promptFragment),
        ("The morning bus driver waves at every child who climbs aboard — perhaps a bit too sweet.", .promptFragment),
        ("The morning bus driver waves at every child who climbs aboard — within the requested length.", .promptFragment),
        ("The morning bus driver waves at every child who climbs aboard — simple, but I like it.", .promptFragment),
        ("The morning bus driver waves at every child who climbs aboard — I left it deliberately open.", .promptFragment),
        ("The morning bus driver waves at every child who climbs aboard — or would you prefer rain?", .promptFragment),
        ("I kept it in the present tense so the morning bus driver waves at every child aboard.", .promptFragment),
        ("I went with \"driver\" rather than \"conductor\" for the man who waves at every child aboard.", .promptFragment),
        ("Compared with the first draft, the morning bus driver now waves at every child aboard.", .promptFragment),
        ("The bus driver waves.", .length),
        ("As an AI language model I think the bus driver waves at every child aboard.", .promptFragment),
        ("The morning bus driver waves at every child who climbs aboard, see www.example.org today.", .bannedFragment),
        ("The morning bus driver waves at every child because everything happens for a reason.", .cliche),
    ])
    func singleDefectsAreCaughtByTheirGate(text: String, gate: GateName) {
        let failure = DeterministicGate().firstFailure(text, locale: "en")
        #expect(failure?.gate == gate, "\(text): got \(failure.map { "\($0.gate): \($0.reason ?? "")" } ?? "pass")")
        #expect(failure?.reason?.isEmpty == false)
    }

    @Test func cleanLinesWithDashesAbbreviationsAndApostrophesPass() {
        let gate = DeterministicGate()
        for text in ["Dr. Ames still walks the long way home so the baker's dog gets its evening biscuit.",
                     "Keep the porch light on — the late train brings your brother home tonight.",
                     "Rain again – and still the postman whistles his way down our street.",
                     "Every morning — rain or shine — The Times lands on the mat before the kettle boils.",
                     "Don't sweep the flour off the table until the children's bread has risen.",
                     "Hold the cat still while the vet studies the bright new X-Ray."] {
            #expect(gate.firstFailure(text, locale: "en") == nil, "\(text): \(String(describing: gate.firstFailure(text, locale: "en")))")
        }
    }

    @Test func extraBannedFragmentsFromTheOperatorApply() {
        let gate = DeterministicGate(extraBannedFragments: ["Acme Corp"])
        let failure = gate.firstFailure("Every Monday the Acme Corp cleaners hum while they polish the lobby floor.", locale: "en")
        #expect(failure?.gate == .bannedFragment)
    }

    @Test func unsupportedLocaleIsALanguageFailure() {
        let failure = DeterministicGate().firstFailure(RejectionFixtures.valid["en"]!, locale: "nl")
        #expect(failure?.gate == .language)
        #expect(failure?.reason?.contains("not supported") == true)
    }

    @Test func noveltyWithoutEmbedderOrLibraryPassesButIsNotProven() async throws {
        let text = RejectionFixtures.valid["en"]!
        let noEmbedder = try await NoveltyGate().evaluate(text, embedder: nil, store: nil)
        #expect(noEmbedder.result.passed && !noEmbedder.proven)
        #expect(noEmbedder.result.reason?.contains("not proven") == true)
        let folder = try TemporaryFolder()
        let empty = try QuoteStore.open(path: folder.path("empty.sqlite"))
        let emptyLibrary = try await NoveltyGate().evaluate(text, embedder: LexicalEmbedder(), store: empty)
        #expect(emptyLibrary.result.passed && !emptyLibrary.proven)
        #expect(emptyLibrary.result.reason?.contains("the library has no quotes") == true)
    }
}
