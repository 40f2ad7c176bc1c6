import Foundation
import PluginFixtures
@testable import QuoteLibrary
import Tandem
import Testing

/// The quote library's learned decisions on the vectors tandem.llama itself computes (they were
/// fitted on the model's own C engine by scripts/novelty-calibration.py and
/// scripts/taste-model.py): novelty's threshold and paraphrase decision on the held-out pairs of
/// eval/novelty, and the taste model on the held-out lines of eval/lines, per language; the held-out
/// lines through every gate the pipeline applies to a draft's text; novelty against copies and
/// one-word edits of every curated quote on a fresh library.
@Suite(.serialized) struct QuoteSignalsOnTheEncoderTests {
    static let root = RunnerPlugin.packageRoot
    static let languages = ["en", "de", "es", "fr", "it", "pt"]
    static let frequencies = WordFrequencies(directory: root + "/models/word-frequencies")

    /// The novelty gate's embedder on the encoder backend, as `HostEmbedder` is on the host.
    struct EncoderEmbedder: Embedder {
        let backend: PluginBackend
        var model: String { backend.info.id }
        func embed(_ text: String) async throws -> [Float] { try await embed(batch: [text])[0] }
        func embed(batch texts: [String]) async throws -> [[Float]] { try backend.embed(texts, cancellation: CancellationToken()) }
        var offersTokenStates: Bool { backend.offersTokenEmbeddings }
        func tokenStates(_ text: String) async throws -> TokenStates { try QuoteSignalsOnTheEncoderTests.tokenStates(text, backend) }
    }

    static func tokenStates(_ text: String, _ backend: PluginBackend) throws -> TokenStates {
        let answer = try backend.tokenEmbeddings(text, cancellation: CancellationToken())
        return TokenStates(ids: answer.ids, states: answer.states)
    }

    /// The two embedding models the library is calibrated for: EmbeddingGemma-300m (tandem.json's
    /// quote embedder) and multilingual-e5-small.
    enum Encoder: String, CaseIterable, Sendable {
        case e5, embeddingGemma
        func backend() throws -> PluginBackend {
            try (self == .e5 ? EncoderBackendTests.shared : EncoderBackendTests.embeddingGemma).get()
        }
    }

    /// The register's verdict on a line as the pipeline reaches it: its vector, and its token states
    /// from the same backend when the model fitted on this encoder reads them.
    static func register(_ text: String, vector: [Float]?, on backend: PluginBackend) throws -> GateResult? {
        let model = backend.info.id
        let tokens = try RegisterModel.measured[model]?.tokenCentre.map { _ in try tokenStates(text, backend) }
        return RegisterStep().evaluate(vector: vector, tokens: tokens, model: model).failure
    }

    static func embed(_ texts: [String], on backend: PluginBackend? = nil) throws -> [String: [Float]] {
        let unique = Array(Set(texts)).sorted()
        let vectors = try (backend ?? EncoderBackendTests.shared.get()).embed(unique, cancellation: CancellationToken())
        return Dictionary(uniqueKeysWithValues: zip(unique, vectors))
    }

    static func cosine(_ a: [Float], _ b: [Float]) -> Float { EncoderBackendTests.cosine(a, b) }

    /// Both paraphrase decisions on the held-out pairs: the token-aligned one (the gate's, with
    /// tandem.llama's per-token states) and the word-overlap one it falls back to without them.
    @Test(arguments: Encoder.allCases) func heldOutNoveltyPairsPerLanguage(encoder: Encoder) throws {
        let backend = try encoder.backend()
        let model = backend.info.id
        let calibration = try #require(NoveltyCalibration.measured[model])
        let decision = try #require(calibration.paraphrase)
        let aligned = try #require(calibration.tokenAligned)
        #expect(backend.offersTokenEmbeddings)
        var caught: [String: [String: (Int, Int)]] = [:]
        var alignedCaught: [String: [String: (Int, Int)]] = [:]
        for language in Self.languages {
            // The held-out files (the script's split; eval/novelty/tuning is fitted on); unrelated:
            // the distinct line two rows down.
            let text = try String(contentsOfFile: Self.root + "/eval/novelty/held-out/\(language).tsv", encoding: .utf8)
            let rows = text.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
            let held = rows.enumerated()
            let vectors = try Self.embed(rows.flatMap { $0 }, on: backend)
            var states: [String: TokenStates] = [:]
            for text in Set(rows.flatMap { $0 }) { states[text] = try Self.tokenStates(text, backend) }
            for (offset, row) in held {
                var pairs = zip(["near_duplicate", "paraphrase", "distinct"], row[1...]).map { ($0, $1) }
                if offset + 2 < rows.count { pairs.append(("unrelated", rows[offset + 2][3])) }
                for (kind, other) in pairs {
                    let similarity = Self.cosine(vectors[row[0]]!, vectors[other]!)
                    let hit = similarity >= calibration.threshold || decision.isParaphrase(cosine: similarity, row[0], other)
                    let (n, total) = caught[language, default: [:]][kind, default: (0, 0)]
                    caught[language, default: [:]][kind] = (n + (hit ? 1 : 0), total + 1)
                    let alignment = aligned.alignment.unsharedAlignment(states[row[0]]!, states[other]!)
                    let alignedHit = similarity >= calibration.threshold
                        || aligned.logOdds(cosine: similarity, alignment: alignment, row[0], other) >= aligned.cutoff
                    let (m, count) = alignedCaught[language, default: [:]][kind, default: (0, 0)]
                    alignedCaught[language, default: [:]][kind] = (m + (alignedHit ? 1 : 0), count + 1)
                }
            }
        }
        func rate(_ kind: String, _ languages: [String], in table: [String: [String: (Int, Int)]]? = nil) -> Double {
            let counts = languages.compactMap { (table ?? caught)[$0]?[kind] }
            return Double(counts.map(\.0).reduce(0, +)) / Double(counts.map(\.1).reduce(0, +))
        }
        for (name, table) in [("word overlaps", caught), ("token-aligned", alignedCaught)] {
            for language in Self.languages {
                print("novelty held-out \(model) \(name) \(language): " + table[language]!.sorted { $0.key < $1.key }
                    .map { "\($0.key) \($0.value.0)/\($0.value.1)" }.joined(separator: ", "))
            }
        }
        let all = Self.languages
        print("novelty held-out \(model) word overlaps, all: near-duplicates \(rate("near_duplicate", all)), paraphrases \(rate("paraphrase", all)), "
              + "distinct \(rate("distinct", all)), unrelated \(rate("unrelated", all))")
        let alignedRates = ["near_duplicate", "paraphrase", "distinct", "unrelated"].map { rate($0, all, in: alignedCaught) }
        print("novelty held-out \(model) token-aligned, all: near-duplicates \(alignedRates[0]), paraphrases \(alignedRates[1]), "
              + "distinct \(alignedRates[2]), unrelated \(alignedRates[3])")
        // The gate's decision: what the script measured on the tool's states (the same engine and
        // tokens; float summation order differs), paraphrases within 2 points, false alarms within
        // one pair of 180 (EmbeddingGemma: 94.4% at 2.8%; e5: 50.0% at 3.3%; QuoteLibrary README
        // "Novelty"), so the bounds here are the measured figures; the repo's quote embedder
        // (EmbeddingGemma) is held to the issue's targets as well.
        if encoder == .embeddingGemma {
            #expect(alignedRates[1] >= 0.90, "paraphrases caught")
            #expect(alignedRates[2] <= 0.05, "false alarms on distinct same-topic lines")
        }
        #expect(alignedRates[0] >= calibration.heldOutNearDuplicatesCaught - 0.02)
        #expect(alignedRates[1] >= aligned.heldOutParaphrasesCaught - 0.02)
        #expect(alignedRates[2] <= aligned.heldOutFalseAlarms + 0.006)
        #expect(alignedRates[3] <= 0.02)
        // The figures the script measured on the reference engine's vectors, within 2 points
        // (the two engines agree at cosine ≥ 0.99, not exactly).
        #expect(rate("near_duplicate", all) >= calibration.heldOutNearDuplicatesCaught - 0.02)
        #expect(rate("paraphrase", all) >= calibration.heldOutParaphrasesCaught - 0.02)
        #expect(rate("distinct", all) <= max(calibration.heldOutFalseAlarms + 0.02, 0.05))
        #expect(rate("unrelated", all) <= 0.02)
    }

    @Test(arguments: Encoder.allCases) func heldOutTasteLinesPerLanguage(encoder: Encoder) throws {
        let backend = try encoder.backend()
        let model = backend.info.id
        let taste = try #require(TasteModel.measured[model])
        let lines = LabelledLines(folder: Self.root + "/eval/lines")
        var right = 0, total = 0
        var good: [Double] = [], generic: [Double] = []
        for language in Self.languages {
            let goodLines = try lines.heldOut(language, .good), genericLines = try lines.heldOut(language, .generic)
            let vectors = try Self.embed(goodLines + genericLines, on: backend)
            let goodOdds = goodLines.map { taste.logOdds(vectors[$0]!) }
            let genericOdds = genericLines.map { taste.logOdds(vectors[$0]!) }
            let accepted = goodOdds.filter { $0 >= taste.cutoff }.count, rejected = genericOdds.filter { $0 < taste.cutoff }.count
            print("taste held-out \(model) \(language): AUC \(String(format: "%.3f", Self.auc(goodOdds, genericOdds))), "
                  + "good accepted \(accepted)/\(goodOdds.count), generic rejected \(rejected)/\(genericOdds.count)")
            right += accepted + rejected
            total += goodOdds.count + genericOdds.count
            good += goodOdds
            generic += genericOdds
        }
        let auc = Self.auc(good, generic), accuracy = Double(right) / Double(total)
        print("taste held-out \(model), all: AUC \(auc), accuracy \(accuracy) on \(total) lines")
        #expect(total == taste.heldOutLines)
        #expect(auc >= taste.heldOutAUC - 0.02)
        #expect(accuracy >= taste.heldOutAccuracy - 0.02)
    }

    /// The held-out labelled lines through the gates the pipeline applies to the text, in its order:
    /// the deterministic gate (with its word check), the register model (EmbeddingGemma only),
    /// distinctiveness (reading the embedding through the taste model's log-odds), then taste, on
    /// this encoder's vectors. Of eval/lines, every generic line must be rejected (and by which gate
    /// is printed: the README's "Which gate rejects what") and at least 95% of the good lines
    /// accepted, per language; of the good lines written apart (eval/drafts/held-out), at least
    /// 94% of all six languages' together (the target is 95%; see below). The fallback judge, which
    /// stands in for the untrusted default judge, is measured on the good lines that pass and
    /// printed, not asserted.
    @Test(arguments: Encoder.allCases) func heldOutLinesThroughEveryGateThePipelineApplies(encoder: Encoder) throws {
        let backend = try encoder.backend()
        let model = backend.info.id
        let gate = DeterministicGate(vocabulary: Self.frequencies)
        let scorer = DistinctivenessScorer(frequencies: Self.frequencies)
        let lines = LabelledLines(folder: Self.root + "/eval/lines")
        /// The first gate that rejects each line, nil where every gate accepts it; and how many of
        /// the accepted the fallback judge would reject.
        func firstFailures(_ texts: [String], _ language: String) throws -> (failures: [String: GateResult], fallbackRejects: Int) {
            let vectors = try Self.embed(texts, on: backend)
            var failures: [String: GateResult] = [:], fallbackRejects = 0
            for text in texts {
                let taste = TasteStep().evaluate(locale: language, vector: vectors[text], model: model).result
                let breakdown = try scorer.score(text, locale: language, taste: taste?.score)
                let failure = try gate.firstFailure(text, locale: language)
                    ?? Self.register(text, vector: vectors[text], on: backend)
                    ?? [DistinctivenessScorer.result(breakdown)].first { !$0.passed }
                    ?? taste.flatMap { $0.passed ? nil : $0 }
                if let failure { failures[text] = failure }
                else if FallbackJudge.scores(text, distinctiveness: breakdown).overall < FallbackJudge.acceptance { fallbackRejects += 1 }
            }
            return (failures, fallbackRejects)
        }
        func summary(_ failures: [String: GateResult]) -> String {
            Dictionary(grouping: failures.values, by: \.gate.rawValue).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.count)" }
                .joined(separator: ", ")
        }
        var totals: [String: (accepted: Int, total: Int)] = [:]
        var fallbackRejectsOfGood = 0
        for language in Self.languages {
            let sources = [("eval/lines good", try lines.heldOut(language, .good)), ("eval/lines generic", try lines.heldOut(language, .generic)),
                           ("eval/drafts good", try WrittenDrafts.lines("held-out", language, "good"))]
            for (source, texts) in sources {
                let (failures, fallbackRejects) = try firstFailures(texts, language)
                let accepted = texts.count - failures.count
                print("gates held-out \(model) \(language) \(source): \(accepted)/\(texts.count) accepted; rejected by "
                      + summary(failures) + "; of the accepted, the fallback judge would reject \(fallbackRejects)")
                if source.hasSuffix("good") {
                    for (text, failure) in failures.sorted(by: { $0.key < $1.key }) {
                        print("gates held-out \(model) \(language): \(failure.gate.rawValue) rejects good \"\(text)\"")
                    }
                    fallbackRejectsOfGood += fallbackRejects
                }
                switch source {
                case "eval/lines good": #expect(Double(accepted) >= 0.95 * Double(texts.count), "\(language): rejected by \(summary(failures))")
                default: break
                }
                let sum = totals[source, default: (0, 0)]
                totals[source] = (sum.accepted + accepted, sum.total + texts.count)
            }
        }
        for (source, total) in totals.sorted(by: { $0.key < $1.key }) {
            print("gates held-out \(model), all: \(source) \(total.accepted)/\(total.total) accepted")
        }
        // Measured on sets 4, 6, 9, 15, 17, 20, 21, 23, 26, 28, 30, 32, 34, 36, 38, 40, 41, 43, 44 and 47: 3496/3598 (97.2%)
        // on EmbeddingGemma (the default embedder), 3527/3598 on e5, which has no register model; before the word check knew
        // German particles and longer verb endings and the register was refitted with set 46, 3490/3598 and 3520/3598
        // (set 47 measured once: 176/180 and 179/180). Before set 47, on sets 4 to 44: 3314/3418 and 3341/3418; before the
        // register was refitted with sets 42 and 45, 3321/3418 on EmbeddingGemma; before set 44, on sets 4
        // to 43, 3144/3238 and 3162/3238; before set 43, on sets
        // 4 to 41, 2972/3058 and 2988/3058; before set 41, on sets 4 to 40, 2795/2879 and 2811/2879; before set 40, on sets
        // 4 to 38, 2618/2699 and 2633/2699 (the register's attribution head was linear then); before sets 37 and
        // 38, on sets 4 to 36, 2442/2519 and 2458/2519; before sets 35 and 36, on sets 4 to 34, 2264/2339 and 2282/2339; before sets 33 and 34, on sets 4
        // to 32, 2091/2159 and 2106/2159; before sets 29 to 32, on sets 4
        // to 28, 1734/1799 and 1753/1799; before sets 27 and 28, on
        // sets 4 to 26, 1560/1620 and 1576/1620; before sets 25 and 26, on
        // sets 4 to 23, 1388/1440 and 1399/1440; before sets 22 to 24, on
        // sets 4 to 21, 1213/1260 and 1227/1260; before set 21, 1035/1080
        // (1041 before the register read token states). Most of the rest: the policy counts a scene
        // that reports someone's saying or claim as credited ("Ogni estate il nonno giura che …"),
        // the writers do not, and the rules (26 of the 3598) and the register's out-of-fold cutoff
        // (42) take such lines. On sets 4, 6, 9, 15 and 17 before set 19: 862/900; with set
        // 16, before set 18: 863/900. On sets 4, 6, 9 and 15
        // before set 16: 686/720; on sets 4, 6
        // and 9 alone: 512/540 before set 14, 503/540 before sets 12 and 13
        // (Sources/QuoteLibrary/README.md, "Register").
        let writtenApart = try #require(totals["eval/drafts good"])
        #expect(Double(writtenApart.accepted) >= 0.95 * Double(writtenApart.total), "good lines written apart: \(writtenApart)")
        // Generic lines: 311/311 rejected on e5; 309/311 on EmbeddingGemma since taste was refitted
        // with set 19 (310/311 since set 14; two Italian lines pass distinctiveness and taste; the
        // fallback judge rejects both).
        let generic = try #require(totals["eval/lines generic"])
        #expect(generic.accepted <= 2, "generic lines accepted: \(generic)")
        let good = totals["eval/lines good"]!.accepted + writtenApart.accepted
        print("the fallback judge would reject \(fallbackRejectsOfGood) of the \(good) accepted good lines")
        // The fallback's calibrated cutoff (FallbackJudgeTests) keeps ≥ 96% of them (at the old cutoff 6: 243 of 282).
        #expect(Double(fallbackRejectsOfGood) <= 0.04 * Double(good), "fallback rejects \(fallbackRejectsOfGood)")
    }

    /// The held-out drafts written apart (eval/drafts/held-out, sets 4, 6, 9, 15, 17, 20, 21, 23, 26, 28, 30,
    /// 32, 34, 36, 38, 40, 41, 43, 44 and 47) on EmbeddingGemma, as the pipeline orders the checks: the deterministic gate
    /// first, then the register model on the novelty vector and token states, which also names the cause of a
    /// rejection by the rules (`RegisterStep.cause`), reads the last sentence of a draft of two or more alone, and
    /// the last clauses of a sentence too long for a line for a credit (counted with the register's figures).
    /// Measured: 2321/2337 leftovers are rejected as `promptFragment` (rules 1447, register 874) and 2327/2379
    /// attributions as `attribution` (rules 1987, register 340); the rules take 26 of the 3598 good lines for either
    /// (a scene reporting someone's saying or claim, advice before a colon read as a source), the register 42 more.
    /// Before the register was refitted with set 46 (fitted with sets up to 45): the same leftovers, 2333/2379
    /// attributions (rules 1988, register 345), and 41 good lines taken by the register; set 47, measured once on that
    /// fit: leftovers 117/119 (rules 82, register 35), attributions 118/120 (rules 97, register 21), good lines taken 1
    /// and 3 of 180. Before set 47, on sets 4 to 44: 2204/2218 (rules 1365, register 839), 2215/2259 (rules 1891,
    /// register 324), 25 and 38 of 3418. Before the register was refitted with sets 42 and 45 (its attribution head
    /// one network then): the same leftovers, 2205/2259 attributions (rules 1889, register 316), and 31 good lines
    /// taken by the register.
    /// Before set 44, on sets 4 to 43: 2085/2098 (rules 1277, register 808), 2090/2139 (rules 1797, register 293),
    /// 25 and 30 of 3238; before the last clauses were read, the same. Before the label before a dash (`DeterministicGate.dashLabel`):
    /// rules 1276, register 809, the rest the same.
    /// Before set 43, on sets 4 to 41: 1965/1978 (rules 1185, register 780), 1976/2019 (rules 1697, register 279),
    /// 24 and 29 of 3058. Before set 41, on sets 4 to 40: 1856/1869 (rules 1125, register 731), 1859/1900 (rules
    /// 1602, register 257), 23 and 29 of 2879; before the last sentence was read alone: 1851 (register 726), the rest the same. When the register
    /// named only rejections on shape (sentence count, sentence end, length), and did not read the rules' own two:
    /// 1835 (register 710) and 1853 (rules 1604, register 249), 24 and 28. Before it named any: 1763 (register 638)
    /// and 1834 (register 230). The figures of earlier sets and fits are in Sources/QuoteLibrary/README.md,
    /// "Register", and in this comment's history.
    @Test func heldOutDraftsWrittenApartThroughTheRulesAndTheRegister() async throws {
        let backend = try Encoder.embeddingGemma.backend()
        let model = backend.info.id
        let register = try #require(RegisterModel.measured[model])
        let gate = DeterministicGate(vocabulary: Self.frequencies), embedder = EncoderEmbedder(backend: backend)
        var caught: [String: (rules: Int, register: Int, total: Int)] = [:]
        var headAlone = (talk: 0, attribution: 0, goodFlagged: 0)
        for language in Self.languages {
            for (kind, expected) in [("leftover", GateName.promptFragment), ("attribution", .attribution), ("good", nil)] {
                let texts = try WrittenDrafts.lines("held-out", language, kind)
                let vectors = try Self.embed(texts, on: backend)
                var entry = caught[kind, default: (0, 0, 0)]
                for text in texts {
                    let vector = try #require(vectors[text]), tokens = try Self.tokenStates(text, backend)
                    let features = try #require(register.features(vector: vector, tokens: tokens))
                    if kind == "leftover", register.talk.score(features) > register.talk.cutoff { headAlone.talk += 1 }
                    if kind == "attribution", register.attribution.score(features) > register.attribution.cutoff { headAlone.attribution += 1 }
                    let flagged = RegisterStep().evaluate(vector: vector, tokens: tokens, model: model).failure
                    if kind == "good", flagged != nil { headAlone.goodFlagged += 1 }
                    entry.total += 1
                    // For a good line, what counts is being taken for either kind.
                    let counts = { (gate: GateName) in expected.map { $0 == gate } ?? [.promptFragment, .attribution].contains(gate) }
                    if let failure = gate.firstFailure(text, locale: language) {
                        // A rejection by the rules is named by the register when it reads the draft, or its last sentence, as talk
                        // or a credit, or by the register or the rules when they read a long sentence's last clauses as a credit.
                        let rejection = RegisterStep.readsCause(of: failure, in: text)
                            ? try await RegisterStep().cause(of: failure, text: text, language: language, embedder: embedder).failure : failure
                        if counts(rejection.gate) {
                            if rejection == failure { entry.rules += 1 } else { entry.register += 1 }
                        }
                        if kind == "good", counts(rejection.gate) {
                            print("rules held-out \(language): take good \"\(text)\": \(rejection.reason ?? "")")
                        }
                    } else if let flagged {
                        if counts(flagged.gate) { entry.register += 1 }
                        if kind == "good" { print("register held-out \(language): flags good \"\(text)\": \(flagged.reason ?? "")") }
                    }
                }
                caught[kind] = entry
            }
        }
        for (kind, entry) in caught.sorted(by: { $0.key < $1.key }) {
            print("drafts written apart, held-out \(kind): \(entry.rules) by the rules + \(entry.register) by the register, of \(entry.total)")
        }
        print("register heads alone: talk \(headAlone.talk), attribution \(headAlone.attribution), good flagged \(headAlone.goodFlagged)")
        // The script's figures on the same model's C engine (the two agree at cosine ≥ 0.99, not exactly).
        #expect(headAlone.talk >= register.talk.heldOutCaught - 3 && headAlone.attribution >= register.attribution.heldOutCaught - 3)
        // Held-out lines written after the fit raise the allowance in proportion (the model was fitted with every set
        // in `held-out/` there; a set written after it adds to the lines).
        let flaggedAtFit = Double(register.talk.heldOutGoodFlagged + register.attribution.heldOutGoodFlagged)
        #expect(Double(headAlone.goodFlagged) <= flaggedAtFit * Double(try #require(caught["good"]).total) / Double(register.talk.heldOutGood) + 1)
        let leftovers = try #require(caught["leftover"]), attributions = try #require(caught["attribution"])
        let good = try #require(caught["good"])
        #expect(leftovers.total == 2337 && attributions.total == 2379 && good.total == 3598)
        #expect(leftovers.rules + leftovers.register >= 2315 && attributions.rules + attributions.register >= 2321)
        #expect(good.rules <= 26 && good.register <= 44)

        // `quote check` lists the register's rejection under the gate it stands for.
        let missed = "I hope this captures the cozy, everyday warmth you were looking for!"
        let (store, folder) = try Self.freshLibrary("register")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = await QuoteChecker(store: store, embedder: embedder,
                                        distinctiveness: DistinctivenessScorer(frequencies: Self.frequencies)).check(missed, locale: "en")
        let ruleResults = gate.evaluate(missed, locale: "en")
        #expect(ruleResults.allSatisfy { $0.passed }, "\(ruleResults)")
        #expect(report.gates.contains { $0.gate == .promptFragment && !$0.passed && $0.reason?.contains("register model") == true }, "\(report.gates)")
        #expect(!report.accepted)
    }

    /// On a fresh library file (the curated catalog only), every curated quote checked verbatim, and
    /// with one word replaced (the middle one, by the middle word of the next quote of its
    /// locale), deleted (the one a third of the way in) and inserted (the next quote's first word,
    /// before the middle one), is rejected by novelty. Counts how often the rejection names the
    /// edited quote itself.
    /// A fresh library file in `folder` (the curated catalog only). A writable file: the read-only
    /// in-memory library would embed the whole catalog again on every check (its vectors cannot be
    /// stored).
    static func freshLibrary(_ name: String) throws -> (store: QuoteStore, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (try LibraryAccess.openForWriting(path: folder.appendingPathComponent("library.sqlite").path), folder)
    }

    @Test(arguments: Encoder.allCases) func copiesAndOneWordEditsOfEveryCuratedQuoteAreRejected(encoder: Encoder) async throws {
        let embedder = EncoderEmbedder(backend: try encoder.backend())
        let entries = try CuratedCatalog.entries()
        let (store, folder) = try Self.freshLibrary("curated-copies")
        defer { try? FileManager.default.removeItem(at: folder) }
        let byLocale = Dictionary(grouping: entries.indices, by: { entries[$0].locale })
        var caught: [String: (rejected: Int, namingSource: Int, total: Int)] = [:]
        var misses: [String] = []
        // Encoder passes for token states, per check: the cost the token-aligned decision adds.
        var passes: [Int] = []
        for (index, entry) in entries.enumerated() {
            let siblings = byLocale[entry.locale]!
            let next = entries[siblings[(siblings.firstIndex(of: index)! + 1) % siblings.count]]
            var tokens = entry.text.split(separator: " ").map(String.init)
            let nextTokens = next.text.split(separator: " ").map(String.init)
            let middle = tokens.count / 2
            let trailing = String(tokens[middle].reversed().prefix { !$0.isLetter }.reversed())
            let replacement = QuoteText.words(nextTokens[nextTokens.count / 2]).first ?? "very"
            var replaced = tokens
            replaced[middle] = replacement + trailing
            var deleted = tokens
            deleted.remove(at: tokens.count / 3)
            tokens.insert(QuoteText.words(nextTokens[0]).first?.lowercased() ?? "very", at: middle)
            let id = try #require(try store.quote(matching: entry.text)).id
            for (kind, text) in [("verbatim", entry.text), ("replaced", replaced.joined(separator: " ")),
                                 ("deleted", deleted.joined(separator: " ")), ("inserted", tokens.joined(separator: " "))] {
                let verdict = try await NoveltyGate().evaluate(text, embedder: embedder, store: store)
                passes.append(verdict.tokenStatePasses)
                #expect(verdict.paraphraseDecision == nil || verdict.paraphraseDecision == .tokenAlignment)
                var count = caught[kind, default: (0, 0, 0)]
                count.total += 1
                if !verdict.result.passed {
                    count.rejected += 1
                    if verdict.result.reason?.contains("#\(id) ") == true { count.namingSource += 1 }
                } else {
                    misses.append("\(kind) #\(id): \"\(text)\" (\(verdict.result.score.map { String(format: "%.3f", $0) } ?? "-"))")
                }
                caught[kind] = count
            }
        }
        for (kind, count) in caught.sorted(by: { $0.key < $1.key }) {
            print("curated \(embedder.model) \(kind): \(count.rejected)/\(count.total) rejected by novelty, \(count.namingSource) naming the quote itself")
        }
        for miss in misses { print("curated edit passed novelty: \(miss)") }
        let sorted = passes.sorted()
        print("token-state encoder passes per check: mean \(String(format: "%.2f", Double(passes.reduce(0, +)) / Double(passes.count))), "
              + "median \(sorted[sorted.count / 2]), max \(sorted.last!), none in \(passes.filter { $0 == 0 }.count) of \(passes.count)")
        #expect(misses.isEmpty, "\(misses.count) copies or edits passed")
    }

    /// The embedder with its per-token states hidden, as a backend without the extension is.
    struct StatelessEmbedder: Embedder {
        let inner: EncoderEmbedder
        var model: String { inner.model }
        func embed(_ text: String) async throws -> [Float] { try await inner.embed(text) }
        func embed(batch texts: [String]) async throws -> [[Float]] { try await inner.embed(batch: texts) }
    }

    /// Original lines (the held-out good lines of eval/lines, written for this repo, none a
    /// rewording of a curated quote) checked against a fresh curated library: how many novelty
    /// rejects with each decision (printed: a rejected original line is a false alarm of the gate
    /// over 1,516 quotes, not of one pair), and the token-state passes the aligned decision costs
    /// per check, which must stay within its bound (the candidate and the 8 nearest quotes).
    @Test(arguments: Encoder.allCases) func originalLinesAgainstTheCuratedLibrary(encoder: Encoder) async throws {
        let embedder = EncoderEmbedder(backend: try encoder.backend())
        let (store, folder) = try Self.freshLibrary("original-lines")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = LabelledLines(folder: Self.root + "/eval/lines")
        var passes: [Int] = [], rejected: [String: Int] = [:], total = 0
        for language in Self.languages {
            for text in try lines.heldOut(language, .good) {
                total += 1
                let aligned = try await NoveltyGate().evaluate(text, locale: language, embedder: embedder, store: store)
                let plain = try await NoveltyGate().evaluate(text, locale: language, embedder: StatelessEmbedder(inner: embedder),
                                                             store: store)
                #expect(aligned.tokenStatePasses <= 1 + ParaphraseDecision.neighbours)
                // Every check that reached the paraphrase step says which decision judged it.
                let reached = aligned.result.passed || aligned.result.reason?.hasPrefix("paraphrase of") == true
                #expect(!reached || aligned.paraphraseDecision == .tokenAlignment, "\(text): \(aligned.result)")
                #expect(!reached || plain.paraphraseDecision == .wordOverlaps(embedderLacksTokenStates: true), "\(plain.result)")
                #expect(plain.tokenStatePasses == 0)
                if plain.result.reason?.hasPrefix("paraphrase of") == true {
                    #expect(plain.result.reason?.contains("word overlaps only") == true, "\(plain.result)")
                }
                if plain.result.passed { #expect(plain.result.reason?.contains("word overlaps only") == true, "\(plain.result)") }
                passes.append(aligned.tokenStatePasses)
                for (name, verdict) in [("token-aligned", aligned), ("word overlaps", plain)] where !verdict.result.passed {
                    rejected[name, default: 0] += 1
                    print("original line rejected by novelty (\(embedder.model), \(name)): \"\(text)\": \(verdict.result.reason ?? "")")
                }
            }
        }
        let sorted = passes.sorted()
        print("original lines against the curated library (\(embedder.model)): \(total) checked; rejected by novelty: token-aligned "
              + "\(rejected["token-aligned", default: 0]), word overlaps \(rejected["word overlaps", default: 0]); token-state "
              + "encoder passes per check: mean \(String(format: "%.2f", Double(passes.reduce(0, +)) / Double(passes.count))), "
              + "median \(sorted[sorted.count / 2]), max \(sorted.last!)")
        // Original lines are not rewordings of curated quotes: at most 1% lost to novelty. (Before
        // the paraphrase decision was kept to the candidate's language, EmbeddingGemma lost 3 to
        // curated quotes in other languages on the same topic.)
        for name in ["token-aligned", "word overlaps"] { #expect(rejected[name, default: 0] * 100 <= total, "\(name)") }
    }

    static func auc(_ good: [Double], _ generic: [Double]) -> Double {
        var wins = 0.0
        for g in good { for b in generic { wins += g > b ? 1 : g == b ? 0.5 : 0 } }
        return wins / Double(good.count * generic.count)
    }
}
