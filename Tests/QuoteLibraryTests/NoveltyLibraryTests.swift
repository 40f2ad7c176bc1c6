import Foundation
import Synchronization
import Testing
@testable import QuoteLibrary

/// An embedder that counts the texts it embeds (the lexical vectors, under its own model id).
final class CountingEmbedder: Embedder {
    let model: String
    private let inner = LexicalEmbedder()
    private let counter = Mutex(0)

    init(model: String = "counting-lexical") { self.model = model }

    var embedded: Int { counter.withLock { $0 } }

    func embed(_ text: String) async throws -> [Float] {
        counter.withLock { $0 += 1 }
        return inner.vector(text)
    }
}

/// The novelty gate over the whole library: every stored quote embedded once, copies rejected
/// before any embedding, the exact scan, the calibration table, and the bad inputs.
@Suite("Novelty over the whole library")
struct NoveltyLibraryTests {
    static func curatedLibrary(_ folder: TemporaryFolder) throws -> QuoteStore {
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        try CuratedCatalog.importIfNeeded(into: store)
        return store
    }

    @Test(arguments: [1, 7, 16, 31, 384, 385])
    func theScanAgreesWithThePlainReference(dimensions: Int) {
        var random = SystemRandomNumberGenerator()
        for rows in [0, 1, 3, 200, EmbeddingMatrix.rowsWorthTwoThreads + 3] {
            var matrix = EmbeddingMatrix(model: "m", dimensions: dimensions)
            for id in 0..<rows {
                matrix.append(id: Int64(id), vector: (0..<dimensions).map { _ in Float.random(in: -1...1, using: &random) })
            }
            let query = (0..<dimensions).map { _ in Float.random(in: -1...1, using: &random) }
            let fast = matrix.nearest(to: query), reference = matrix.nearestByReference(to: query)
            #expect((fast == nil) == (rows == 0) && (reference == nil) == (rows == 0))
            guard let fast, let reference else { continue }
            #expect(abs(fast.similarity - reference.similarity) < 1e-5, "\(dimensions)×\(rows): \(fast) vs \(reference)")
            if fast.id != reference.id {   // only a tie within rounding may pick another row
                #expect(abs(fast.similarity - reference.similarity) < 1e-6)
            }
            // The two-thread scan of a large matrix lists what one scan of every row lists.
            #expect(matrix.nearest(to: query, count: 8) == matrix.nearest(to: EmbeddingMatrix.unit(query), count: 8, rows: 0..<rows))
        }
    }

    /// Equal similarities keep the earlier row first, across the two halves of a two-thread scan.
    @Test func tiesKeepTheEarlierRowAcrossTheHalves() {
        var matrix = EmbeddingMatrix(model: "m", dimensions: 2)
        for id in 0..<EmbeddingMatrix.rowsWorthTwoThreads * 2 { matrix.append(id: Int64(id), vector: id % 1000 == 7 ? [1, 0] : [0, 1]) }
        let ids = matrix.nearest(to: [1, 0], count: 5).map(\.id)
        #expect(ids == [7, 1007, 2007, 3007, 4007])
    }

    /// One word replaced, added or removed is an edit, with case, accents and punctuation folded;
    /// two words, a reordering, or two unrelated one-word texts are not.
    @Test func oneWordEditsAreToldFromOtherChanges() {
        func edit(_ a: String, _ b: String) -> Bool { NoveltyGate.isOneWordEdit(NoveltyGate.editWords(a), NoveltyGate.editWords(b)) }
        #expect(edit("Love all.", "Love a all."))
        #expect(edit("Que sais-je ?", "Que ?"))
        #expect(edit("Lost time is never found again.", "Lost time is fell found again."))
        #expect(edit("Knowledge is power.", "knowledge IS Pówer"))
        #expect(edit("Work is love made visible.", "Work is love made visible today."))
        #expect(!edit("Lost time is never found again.", "Lost time is not ever found again soon."))
        #expect(!edit("Knowledge is power.", "Power is knowledge."))
        #expect(!edit("Love.", "Hope."))
        #expect(!edit("", "Hope."))
    }

    @Test func theNearestFewAreTheTopOfTheReferenceOrder() {
        var random = SystemRandomNumberGenerator()
        var matrix = EmbeddingMatrix(model: "m", dimensions: 48)
        var rows: [[Float]] = []
        for id in 0..<300 {
            rows.append((0..<48).map { _ in Float.random(in: -1...1, using: &random) })
            matrix.append(id: Int64(id), vector: rows[id])
        }
        let query = (0..<48).map { _ in Float.random(in: -1...1, using: &random) }
        let expected = rows.indices.map { (id: Int64($0), similarity: NoveltyGate.cosine(query, rows[$0])) }
            .sorted { $0.similarity > $1.similarity }
        let top = matrix.nearest(to: query, count: 8)
        #expect(top.map(\.id) == expected.prefix(8).map(\.id))
        #expect(zip(top, expected).allSatisfy { abs($0.similarity - $1.similarity) < 1e-5 })
        #expect(matrix.nearest(to: query, count: 1).first == matrix.nearest(to: query))
        #expect(matrix.nearest(to: query, count: 500).count == 300)
    }

    @Test func paraphraseFeaturesFoldCaseAccentsAndWordEndings() {
        let same = ParaphraseDecision.features(cosine: 0.9, "Shovel the snow, Señor!", "shovel THE snow señor")
        #expect(same == [Double(Float(0.9)), 1, 1])
        // Stems are the first 5 letters of words of 4+ letters: "shovelled" meets "shovel".
        let stems = ParaphraseDecision.features(cosine: 0, "He shovelled it", "shovel")
        #expect(stems[1] == 1)
        #expect(ParaphraseDecision.features(cosine: 0, "abc", "xyz")[1...] == [0, 0])
    }

    @Test func aParaphraseBelowTheThresholdIsRejectedNamingTheStoredQuote() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.curatedLibrary(folder)
        let embedder = LexicalEmbedder()
        let text = "Carry the spare key to your neighbour before the evening rain reaches her porch."
        let open = try await NoveltyGate(calibrations: [embedder.model: NoveltyCalibration(
            model: embedder.model, threshold: 0.999, heldOutNearDuplicatesCaught: 1, heldOutParaphrasesCaught: 0,
            heldOutFalseAlarms: 0, heldOutPairs: 0)]).evaluate(text, embedder: embedder, store: store)
        let nearest = try #require(open.result.score)
        #expect(open.result.passed)
        // A decision that calls a pair a paraphrase from just below the nearest quote's cosine,
        // whatever the wording: the gate checks the nearest quotes with it and names the match.
        let decision = ParaphraseDecision(weights: [1, 0, 0], bias: 0, cutoff: nearest - 0.0001)
        let verdict = try await NoveltyGate(calibrations: [embedder.model: NoveltyCalibration(
            model: embedder.model, threshold: 0.999, paraphrase: decision, heldOutNearDuplicatesCaught: 1,
            heldOutParaphrasesCaught: 1, heldOutFalseAlarms: 0, heldOutPairs: 1)]).evaluate(text, embedder: embedder, store: store)
        #expect(!verdict.result.passed && verdict.proven)
        #expect(verdict.result.reason?.hasPrefix("paraphrase of stored quote #") == true, "\(verdict.result.reason ?? "")")
        #expect(verdict.result.score == nearest)
        // Given the candidate's locale, the decision reads only the quotes of its language: the
        // matched quote's language still rejects, one no curated quote has ("nl") passes.
        let gate = NoveltyGate(calibrations: [embedder.model: NoveltyCalibration(
            model: embedder.model, threshold: 0.999, paraphrase: decision, heldOutNearDuplicatesCaught: 1,
            heldOutParaphrasesCaught: 1, heldOutFalseAlarms: 0, heldOutPairs: 1)])
        let id = try #require(verdict.result.reason?.dropFirst("paraphrase of stored quote #".count).prefix { $0.isNumber })
        let matched = try #require(try store.quote(id: Int64(id)!))
        let sameLanguage = try await gate.evaluate(text, locale: matched.locale, embedder: embedder, store: store)
        #expect(!sameLanguage.result.passed && sameLanguage.result.reason == verdict.result.reason)
        let otherLanguage = try await gate.evaluate(text, locale: "nl-BE", embedder: embedder, store: store)
        #expect(otherLanguage.result.passed, "\(otherLanguage.result.reason ?? "")")
    }

    @Test func aRowIsFoundByItsOwnVectorWhateverItsScale() {
        var matrix = EmbeddingMatrix(model: "m", dimensions: 3)
        matrix.append(id: 10, vector: [1, 0, 0])
        matrix.append(id: 11, vector: [0, 2, 0])
        matrix.append(id: 12, vector: [0, 0, 0])
        #expect(matrix.nearest(to: [0, 5, 0]) == .init(id: 11, similarity: 1))
        #expect(NoveltyGate.cosine([1, 1], [2, 2]) > 0.9999)
        #expect(NoveltyGate.cosine([1, 1], [1, 1, 1]) == 0)
    }

    @Test func everyStoredQuoteIsEmbeddedOnceBeforeTheFirstComparison() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.curatedLibrary(folder)
        let total = try store.count()
        let embedder = CountingEmbedder()
        let reports = Mutex<[Int]>([])
        let first = try await NoveltyGate().evaluate("Paint the garden gate yellow so the postman finds the right house.",
                                                     embedder: embedder, store: store,
                                                     progress: { done, all in reports.withLock { $0.append(done); _ = all } })
        #expect(first.result.passed)
        #expect(embedder.embedded == total + 1, "every quote once, then the candidate")
        #expect(try store.countMissingEmbeddings(model: embedder.model, dimensions: 512) == 0)
        #expect(reports.withLock { $0 }.last == total)
        #expect(reports.withLock { $0 }.count == (total + LibraryEmbedding.batchSize - 1) / LibraryEmbedding.batchSize,
                "one progress report per stored batch")
        let second = try await NoveltyGate().evaluate("Oil the squeaky gate so the baby is not woken at dawn.",
                                                      embedder: embedder, store: store)
        #expect(second.result.passed)
        #expect(embedder.embedded == total + 2, "nothing embedded again")
        #expect(first.proof?.comparedThrough == Int64(total))
    }

    @Test func aChangedModelEmbedsTheLibraryAgainUnderItsOwnId() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.curatedLibrary(folder)
        let total = try store.count()
        _ = try await NoveltyGate().evaluate("Fold the map twice.", embedder: CountingEmbedder(model: "old-model"), store: store)
        let newer = CountingEmbedder(model: "new-model")
        _ = try await NoveltyGate().evaluate("Fold the map twice.", embedder: newer, store: store)
        #expect(newer.embedded == total + 1)
        let models = try store.embeddingModels()
        #expect(models.map(\.model) == ["new-model", "old-model"] && models.allSatisfy { $0.count == total })
    }

    @Test func aModelThatChangedWidthUnderTheSameIdIsEmbeddedAgain() async throws {
        struct Wide: Embedder {
            let model = "same-id"
            func embed(_ text: String) async throws -> [Float] { LexicalEmbedder(dimensions: 64).vector(text) }
        }
        let folder = try TemporaryFolder()
        let store = try Self.curatedLibrary(folder)
        _ = try await NoveltyGate().evaluate("Fold the map twice.", embedder: CountingEmbedder(model: "same-id"), store: store)
        let verdict = try await NoveltyGate().evaluate("Well done is better than well said, friend!", embedder: Wide(), store: store)
        #expect(try store.embeddingModels().map(\.dimensions) == [64], "the 512-wide vectors were replaced")
        #expect(!verdict.result.passed, "compared with the curated line at the new width: \(verdict.result)")
    }

    @Test(arguments: ["Well done is better than well said.", "  WELL DONE is better than well said!  ",
                      "Well done, is better than... well said", "“Well done is better than well said.”"])
    func aCopyIsRejectedBeforeAnythingIsEmbedded(text: String) async throws {
        let folder = try TemporaryFolder()
        let store = try Self.curatedLibrary(folder)
        let original = try #require(try store.quote(matching: "Well done is better than well said."))
        let embedder = CountingEmbedder()
        let verdict = try await NoveltyGate().evaluate(text, embedder: embedder, store: store)
        #expect(!verdict.result.passed && verdict.proven && verdict.result.score == 1)
        #expect(verdict.result.reason?.contains("copy of stored quote #\(original.id) (curated, Benjamin Franklin)") == true,
                "\(verdict.result.reason ?? "")")
        #expect(embedder.embedded == 0)
    }

    /// The mechanics over every curated quote on a fresh library: a verbatim copy is rejected as a
    /// copy, and a copy with its middle word dropped is compared with all stored vectors and
    /// rejected naming its own source. The model-free embedder's cosines for such edits of short
    /// lines fall to 0.52 ("Que sais-je ?" → "Que ?"), so this test sets its threshold at 0.5;
    /// what the shipped encoders do at their calibrated thresholds is measured by
    /// QuoteSignalsOnTheEncoderTests.copiesAndOneWordEditsOfEveryCuratedQuoteAreRejected.
    @Test func everyCuratedQuoteCopiedVerbatimOrWithOneWordDroppedIsRejectedNamingIt() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.curatedLibrary(folder)
        let embedder = LexicalEmbedder()
        let gate = NoveltyGate(calibrations: [embedder.model: NoveltyCalibration(
            model: embedder.model, threshold: 0.5, heldOutNearDuplicatesCaught: 1, heldOutParaphrasesCaught: 0,
            heldOutFalseAlarms: 0, heldOutPairs: 0)])
        var missed: [String] = []
        let entries = try CuratedCatalog.entries()
        for entry in entries {
            let source = try #require(try store.quote(matching: entry.text))
            let verbatim = try await gate.evaluate(entry.text, embedder: embedder, store: store)
            if verbatim.result.passed || verbatim.result.reason?.contains("copy of stored quote #\(source.id) ") != true {
                missed.append("verbatim #\(source.id): \(verbatim.result)")
            }
            let edited = NoveltyEdits.dropMiddleWord(entry.text)
            let verdict = try await gate.evaluate(edited, embedder: embedder, store: store)
            if verdict.result.passed || verdict.result.reason?.contains("stored quote #\(source.id) ") != true {
                missed.append("edited #\(source.id) \(edited): \(verdict.result)")
            }
        }
        #expect(missed.isEmpty, "\(missed.count) of \(2 * entries.count) missed:\n\(missed.joined(separator: "\n"))")
        #expect(try store.countMissingEmbeddings(model: embedder.model, dimensions: embedder.dimensions) == 0)
    }

    @Test func theCalibratedThresholdIsUsedAndAnUncalibratedModelSaysSo() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.curatedLibrary(folder)
        let embedder = CountingEmbedder(model: "tuned")
        let text = "Carry the spare key to your neighbour before the evening rain reaches her porch."
        let uncalibrated = try await NoveltyGate().evaluate(text, embedder: embedder, store: store)
        #expect(uncalibrated.result.passed && !uncalibrated.proven)
        #expect(uncalibrated.result.reason?.contains("threshold 0.9 is the uncalibrated default for tuned") == true,
                "\(uncalibrated.result.reason ?? "")")
        let score = Float(try #require(uncalibrated.result.score))
        let strict = NoveltyCalibration(model: "tuned", threshold: score - 0.001, heldOutNearDuplicatesCaught: 1,
                                        heldOutParaphrasesCaught: 1, heldOutFalseAlarms: 0, heldOutPairs: 1)
        let calibrated = try await NoveltyGate(calibrations: ["tuned": strict]).evaluate(text, embedder: embedder, store: store)
        #expect(!calibrated.result.passed && calibrated.proven)
        #expect(calibrated.result.reason?.contains("calibrated for tuned") == true)
        for model in ["embeddinggemma-300m-q8_0", "multilingual-e5-small-q4_0"] {
            #expect(NoveltyCalibration.measured[model] != nil, "the shipped model \(model) has a calibration")
        }
    }

    @Test func badInputGetsAClearVerdictAndStoresNothing() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.curatedLibrary(folder)
        let embedder = CountingEmbedder()
        let long = Array(repeating: "word", count: 10_000).joined(separator: " ")
        let tooLong = try await NoveltyGate().evaluate(long, embedder: embedder, store: store)
        #expect(!tooLong.result.passed && tooLong.result.reason?.contains("10000 words") == true)
        #expect(embedder.embedded == 0)
        for text in ["🌧️☕️🌈", "Der Regen fällt и снег идёт 雨が降る on the quiet street."] {
            let verdict = try await NoveltyGate().evaluate(text, embedder: embedder, store: store)
            #expect(verdict.result.passed, "\(text): \(verdict.result)")
            #expect(verdict.result.score != nil, "compared with the library")
        }
        let failing = try await NoveltyGate().evaluate("Fold the map twice.", embedder: FailingEmbedder(), store: store)
        #expect(!failing.result.passed && failing.result.reason?.contains("embedding backend offline") == true)
        #expect(try store.embeddingModels().map(\.model) == [embedder.model], "the failing model stored nothing")
    }

    @Test func aReadOnlyLibraryIsComparedInFullWithoutWriting() async throws {
        let folder = try TemporaryFolder()
        let total = try Self.curatedLibrary(folder).count()
        let reader = try QuoteStore.openReadOnly(path: folder.path("lib.sqlite"))
        let verdict = try await NoveltyGate().evaluate("All the world's a stage, and all the men and women only players.",
                                                       embedder: LexicalEmbedder(), store: reader)
        #expect(!verdict.result.passed && verdict.result.reason?.contains("William Shakespeare") == true, "\(verdict.result)")
        let other = try await NoveltyGate().evaluate("Oil the squeaky gate so the baby sleeps.", embedder: LexicalEmbedder(), store: reader)
        #expect(other.result.reason?.contains("\(total) vectors computed for this check only (the library is read-only)") == true,
                "\(other.result)")
        #expect(try reader.embeddingModels().isEmpty)
    }

    @Test func aNearCopyStoredWhileACandidateWasCheckedStopsItsStoring() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let embedder = LexicalEmbedder()
        let text = "Leave the porch light on so the late bus driver sees a friendly window."
        let verdict = try await NoveltyGate().evaluate(text, embedder: embedder, store: store)
        let proof = try #require(verdict.proof)
        // Another writer stores a near-copy (with its vector) between the check and the store.
        let other = try await NoveltyGate().evaluate(text + " Tonight.", embedder: embedder, store: store)
        _ = try store.addUserQuotes([UserQuote(text: text + " Tonight.", locale: "en", author: nil, novelty: other.proof)])
        #expect(throws: StoreError.self) {
            _ = try store.addUserQuotes([UserQuote(text: text, locale: "en", author: nil, novelty: proof)])
        }
        #expect(try store.count() == 1)
    }
}

/// Deterministic one-word edits of a line, for the curated-copy tests.
enum NoveltyEdits {
    /// The line without its middle word (lines of one word stay as they are).
    static func dropMiddleWord(_ text: String) -> String {
        var words = text.split(separator: " ").map(String.init)
        guard words.count > 1 else { return text }
        words.remove(at: words.count / 2)
        return words.joined(separator: " ")
    }
}
