import Foundation
import PluginFixtures
import Testing
@testable import QuoteLibrary

@Suite("Quote pipeline with in-process doubles")
struct QuotePipelineTests {
    static let good = "Carry the spare key to your neighbour before the evening rain reaches her porch."
    static let goodToo = "Fold the warm blanket twice and leave it on the bench for the night nurse."
    static let goodThree = "Mend the torn sleeve tonight so your son can climb the oak tree tomorrow."

    /// On a clock that stands still unless a test advances it: a budget expires only in the tests
    /// about budgets, never because a loaded machine starved the others.
    static func pipeline(_ store: QuoteStore, writer: DraftWriter, judge: Judge? = ScriptedJudge.scoring(8),
                         embedder: Embedder? = LexicalEmbedder(),
                         readiness: Readiness = FixedReadiness.allAvailable,
                         escalation: EscalationPolicy = .everyGate, clock: BudgetClock = ManualClock(),
                         taste: TasteStep = TasteStep(), register: RegisterStep = RegisterStep()) -> QuotePipeline {
        QuotePipeline(store: store, readiness: readiness, writer: writer, judge: judge, embedder: embedder,
                      distinctiveness: TestScorer.scorer, taste: taste, register: register, escalation: escalation, clock: clock)
    }

    /// A register model over the lexical embedder's vectors that reads every line as talk, as a
    /// credited saying, or as neither.
    static func register(talk: Bool, attribution: Bool, model: String = LexicalEmbedder().model) -> RegisterStep {
        let weights = [Float](repeating: 0, count: LexicalEmbedder().dimensions)
        return RegisterStep(models: [model: RegisterModel(
            model: model, talk: head(weights, bias: talk ? 5 : -5), attribution: head(weights, bias: attribution ? 5 : -5))])
    }

    /// A register head with cutoff 0, measured on nothing.
    static func head(_ weights: [Float], bias: Double, hidden: HiddenLayer? = nil) -> LinearHead {
        LinearHead(hidden: hidden, bias: bias, cutoff: 0, heldOutCaught: 0, heldOutLines: 0, heldOutGoodFlagged: 0, heldOutGood: 0, weights: weights)
    }

    @Test func aRegisterModelWithATokenCentreReadsTheMeanAndMaximumOfTheCentredUnitTokenStates() {
        // The attribution head reads the maximum of the first component alone.
        let model = RegisterModel(model: "m", tokenCentre: [1, 1], talk: Self.head([0, 0, 0, 0, 0, 0], bias: -5),
                                  attribution: Self.head([0, 0, 0, 0, 10, 0], bias: -5))
        // Centred, [4, 1] is [3, 0] and [1, -1] is [0, -2]; made unit, [1, 0] and [0, -1].
        let tokens = TokenStates(ids: [7, 8], states: [[4, 1], [1, -1]])
        #expect(model.features(vector: [0, 2], tokens: tokens) == [0, 1, 0.5, -0.5, 1, 0])
        #expect(model.features(vector: [0, 2], tokens: nil) == nil)
        #expect(model.features(vector: [0, 2], tokens: TokenStates(ids: [], states: [])) == nil)
        #expect(model.features(vector: [0, 2], tokens: TokenStates(ids: [7], states: [[4, 1, 0]])) == nil)
        let step = RegisterStep(models: ["m": model])
        let flagged = step.evaluate(vector: [0, 2], tokens: tokens, model: "m")
        #expect(flagged.failure?.gate == .attribution)
        #expect(flagged.record == "talk -5.00 (cutoff 0.00), attribution 5.00 (cutoff 0.00, m)")
        // No token reaches out along the first component: nothing is flagged.
        let passed = step.evaluate(vector: [0, 2], tokens: TokenStates(ids: [8], states: [[1, -1]]), model: "m")
        #expect(passed == RegisterStep.Verdict(flags: [], record: "talk -5.00 (cutoff 0.00), attribution -5.00 (cutoff 0.00, m)"))
        // Without the states it needs, the model does not run: the rules stand alone, and the run says why.
        #expect(step.evaluate(vector: [0, 2], tokens: nil, model: "m")
                == RegisterStep.Verdict(flags: [], record: "skipped: m gave no token states for the draft"))
        #expect(step.evaluate(vector: [0, 2, 0], tokens: tokens, model: "m")
                == RegisterStep.Verdict(flags: [], record: "skipped: the draft's vectors are not as wide as the register model fitted on m"))
    }

    /// The run of one English `generate` whose writer's only draft is `draft`.
    static func run(_ draft: String, in store: QuoteStore, embedder: Embedder? = LexicalEmbedder(), register: RegisterStep) async -> GenerationRun {
        await pipeline(store, writer: ScriptedWriter(drafts: [draft]), embedder: embedder, register: register).generate(locale: "en").run
    }

    @Test func aDraftRejectedOnItsShapeIsRejectedAsTalkWhenTheRegisterReadsItSo() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let tooLong = "Carry the spare key to your neighbour before the evening rain reaches her porch and the gutters overflow again tonight."
        let talk = await Self.run(tooLong, in: store, register: Self.register(talk: true, attribution: false))
        #expect(talk.branch == .rejected && talk.gate == "promptFragment", "\(talk)")
        #expect(talk.reason?.hasSuffix("the draft also fails length: has 20 words; at most 18 are allowed") == true, "\(talk)")
        #expect(talk.register == "talk 5.00 (cutoff 0.00), attribution -5.00 (cutoff 0.00, \(LexicalEmbedder().model))")
        // Read as neither, the shape's failure stands, and the run records the scores.
        let neither = await Self.run(tooLong, in: store, register: Self.register(talk: false, attribution: false))
        #expect(neither.gate == "length" && neither.register?.hasPrefix("talk -5.00") == true, "\(neither)")
        // Without an embedder, or past the words the register reads, the shape's failure stands unread.
        let unread = await Self.run(tooLong, in: store, embedder: nil, register: Self.register(talk: true, attribution: true))
        #expect(unread.gate == "length" && unread.register == nil, "\(unread)")
        // An embedder that fails leaves the shape's failure standing, and the run says why.
        let failed = await Self.run(tooLong, in: store, embedder: FailingEmbedder(),
                                    register: Self.register(talk: true, attribution: true, model: FailingEmbedder().model))
        #expect(failed.gate == "length", "\(failed)")
        #expect(failed.register?.hasPrefix("skipped: the draft could not be embedded to read the cause of its length failure: ") == true, "\(failed)")
        // An embedder no register model was fitted on is not asked: nothing could come of it.
        let unfitted = await Self.run(tooLong, in: store, embedder: FailingEmbedder(), register: Self.register(talk: true, attribution: true))
        #expect(unfitted.gate == "length" && unfitted.register == "skipped: no register model fitted on failing-embedder's vectors", "\(unfitted)")
        let wall = Array(repeating: "Carry the spare key to your neighbour before the rain.", count: 7).joined(separator: " ")
        let long = await Self.run(wall, in: store, register: Self.register(talk: true, attribution: true))
        #expect(long.gate == "sentenceCount" && long.register == nil, "\(long)")
        #expect(try store.count() == 0)
    }

    @Test func aDraftRejectedForItsWordsIsReadForItsCauseButNotOneInAnotherLanguage() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let marked = "Carry the **spare key** to your neighbour before the evening rain reaches her porch."
        let credited = await Self.run(marked, in: store, register: Self.register(talk: false, attribution: true))
        #expect(credited.gate == "attribution" && credited.reason?.contains("; the draft also fails markup: ") == true, "\(credited)")
        // The language is the cause of a draft in another language; the heads were not fitted on its lines.
        let german = "Bring den Ersatzschlüssel zur Nachbarin, bevor der Abendregen ihre Veranda erreicht."
        let elsewhere = await Self.run(german, in: store, register: Self.register(talk: true, attribution: true))
        #expect(elsewhere.gate == "language" && elsewhere.register == nil, "\(elsewhere)")
        #expect(try store.count() == 0)
    }

    @Test func aDraftOfTwoSentencesIsReadByItsLastSentenceWhenTheWholeIsNotFlagged() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        // A talk head that flags what reads like "I kept the weather out of it." alone: its weights are that
        // sentence's unit vector, so only a text close to it scores above the cutoff.
        let comment = "I kept the weather out of it.", lexical = LexicalEmbedder()
        let model = RegisterModel(model: lexical.model, talk: Self.head(lexical.vector(comment), bias: -0.8),
                                  attribution: Self.head([Float](repeating: 0, count: lexical.dimensions), bias: -5))
        let register = RegisterStep(models: [lexical.model: model])
        let commented = Self.good + " " + comment
        #expect(register.evaluate(vector: lexical.vector(commented), tokens: nil, model: lexical.model).failure == nil)
        let run = await Self.run(commented, in: store, register: register)
        #expect(run.gate == "promptFragment", "\(run)")
        #expect(run.reason?.hasPrefix("its last sentence, \"I kept the weather out of it.\", reads as talk about the exchange") == true, "\(run)")
        #expect(run.reason?.contains("; the draft also fails sentenceCount: ") == true, "\(run)")
        #expect(run.register?.contains("; its last sentence: talk 0.20") == true, "\(run)")
        // `quote check` asks the register as the pipeline does: the cause follows the rules' failure.
        let report = await QuoteChecker(store: store, embedder: lexical, register: register, distinctiveness: TestScorer.scorer)
            .check(commented, locale: "en")
        #expect(report.gates.first { !$0.passed }?.gate == .sentenceCount, "\(report.gates)")
        #expect(report.gates.filter { $0.gate == .promptFragment && !$0.passed }.map { $0.reason?.hasPrefix("its last sentence, ") }
                == [true], "\(report.gates)")
        #expect(try store.count() == 0)
    }

    @Test func aSentenceTooLongForALineIsReadByItsLastClausesForACreditAlone() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let neither = Self.register(talk: false, attribution: false)
        // The rules' frame before a colon is read in the last clauses, where the lead-in no longer drowns it.
        let colon = "Walking home past the shuttered stalls with a bag of lychees, "
            + "I kept hearing my aunt's voice: markets are where strangers practice being neighbors."
        #expect(DeterministicGate(vocabulary: TestScorer.frequencies).firstFailure(colon, locale: "en")?.gate == .length)
        let framed = await Self.run(colon, in: store, register: neither)
        #expect(framed.gate == "attribution", "\(framed)")
        #expect(framed.reason?.hasPrefix("its last clauses, \"I kept hearing my aunt's voice: markets are where strangers practice being neighbors.\", "
                                         + "read alone: names the line's source before a colon") == true, "\(framed)")
        #expect(framed.reason?.hasSuffix("; the draft also fails length: has 24 words; at most 18 are allowed") == true, "\(framed)")
        #expect(framed.register?.hasSuffix("; its last clauses: the rules read a credit") == true, "\(framed)")
        // An attribution head that flags what reads like the last clauses alone names the credit.
        let told = "We spent the evening under the lanterns eating grilled squid and counting the lights, "
            + "and on the way out the old fishmonger told us the tide brings back what the market gives away."
        let clauses = "And on the way out the old fishmonger told us the tide brings back what the market gives away.", lexical = LexicalEmbedder()
        #expect(RegisterStep.lastClauses(of: told) == clauses)
        let zero = Self.head([Float](repeating: 0, count: lexical.dimensions), bias: -5)
        let flagsClauses = Self.head(lexical.vector(clauses), bias: -0.9)
        let credit = RegisterStep(models: [lexical.model: RegisterModel(model: lexical.model, talk: zero, attribution: flagsClauses)])
        #expect(credit.evaluate(vector: lexical.vector(told), tokens: nil, model: lexical.model).failure == nil)
        let named = await Self.run(told, in: store, register: credit)
        #expect(named.gate == "attribution" && named.reason?.hasPrefix("its last clauses, \"\(clauses)\", reads as a saying credited to someone") == true,
                "\(named)")
        #expect(named.register?.contains("; its last clauses: talk -5.00 (cutoff 0.00), attribution 0.10") == true, "\(named)")
        // The talk head is not asked of the last clauses: a part of a sentence reads like talk, whatever the whole was.
        let talk = RegisterStep(models: [lexical.model: RegisterModel(model: lexical.model, talk: flagsClauses, attribution: zero)])
        let stands = await Self.run(told, in: store, register: talk)
        #expect(stands.gate == "length" && stands.register?.contains("; its last clauses: talk 0.10") == true, "\(stands)")
        // Neither frame nor head: the length stands. A sentence whose last clauses are shorter than a line is not read by them.
        #expect(await Self.run(told, in: store, register: neither).gate == "length")
        #expect(RegisterStep.lastClauses(of: String(Self.good.dropLast()) + ", tonight, again.") == nil)
        #expect(try store.count() == 0)
    }

    @Test func aDraftTheRulesReadAsACreditIsRejectedAsTalkWhenOnlyTheTalkHeadFlagsIt() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let credited = "My grandmother always said: carry the spare key to your neighbour before the evening rain."
        #expect(DeterministicGate(vocabulary: TestScorer.frequencies).firstFailure(credited, locale: "en")?.gate == .attribution)
        let talk = await Self.run(credited, in: store, register: Self.register(talk: true, attribution: false))
        #expect(talk.gate == "promptFragment" && talk.reason?.contains("; the rules read it as attribution: ") == true, "\(talk)")
        // When the attribution head flags it too, or neither head does, the rules' reading stands.
        for (talk, attribution) in [(true, true), (false, false)] {
            let stands = await Self.run(credited, in: store, register: Self.register(talk: talk, attribution: attribution))
            #expect(stands.gate == "attribution" && stands.reason?.contains("register model") == false, "\(stands)")
        }
        #expect(try store.count() == 0)
    }

    @Test func aRegisterHeadWithAHiddenLayerScoresItsRectifiedUnits() {
        // Little-endian floats 1, -1 (unit 0) and 0.5, 2 (unit 1), as scripts/register-model.py writes them.
        let bytes: [UInt8] = [0, 0, 0x80, 0x3f, 0, 0, 0x80, 0xbf, 0, 0, 0, 0x3f, 0, 0, 0, 0x40]
        let layer = HiddenLayer(inputs: 2, bias: [0, -1], weightsBase64: Data(bytes).base64EncodedString())
        #expect(layer == HiddenLayer(inputs: 2, bias: [0, -1], weights: [1, -1, 0.5, 2]))
        // Unit 0: 0.5 − 0.75 is below zero; unit 1: −1 + 0.25 + 1.5.
        #expect(layer.outputs([0.5, 0.75]) == [0, 0.75])
        // The attribution head reads unit 0 alone, which only a vector along the first axis reaches;
        // the talk head reads the features directly.
        let attribution = Self.head([10, 0], bias: -5, hidden: layer)
        #expect(attribution.inputs == 2 && attribution.score([1, 0]) == 5 && attribution.score([0, 1]) == -5)
        let model = RegisterModel(model: "m", talk: Self.head([0, 0], bias: -5), attribution: attribution)
        let step = RegisterStep(models: ["m": model])
        #expect(step.evaluate(vector: [2, 0], tokens: nil, model: "m")
                == RegisterStep.Verdict(flags: [.fail(.attribution, "reads as a saying credited to someone to the register model: score 5.00 (cutoff 0.00, m)", score: 5)],
                                        record: "talk -5.00 (cutoff 0.00), attribution 5.00 (cutoff 0.00, m)"))
        #expect(step.evaluate(vector: [0, 2], tokens: nil, model: "m")
                == RegisterStep.Verdict(flags: [], record: "talk -5.00 (cutoff 0.00), attribution -5.00 (cutoff 0.00, m)"))
        // A head whose layer is narrower than the features is not run.
        let narrow = RegisterModel(model: "m", talk: Self.head([0, 0, 0], bias: -5), attribution: attribution)
        #expect(RegisterStep(models: ["m": narrow]).evaluate(vector: [2, 0, 0], tokens: nil, model: "m")
                == RegisterStep.Verdict(flags: [], record: "skipped: the draft's vectors are not as wide as the register model fitted on m"))
    }

    @Test func theRegisterReadsTheNoveltyVectorAndRejectsTalkAndCreditedSayingsUnderTheirGates() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let talk = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), register: Self.register(talk: true, attribution: true))
            .generate(locale: "en")
        #expect(talk.run.branch == .rejected && talk.run.gate == "promptFragment", "\(talk.run)")
        #expect(talk.run.reason?.contains("reads as talk about the exchange, not a line to the register model: score 5.00") == true)
        let credited = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), register: Self.register(talk: false, attribution: true))
            .generate(locale: "en")
        #expect(credited.run.branch == .rejected && credited.run.gate == "attribution", "\(credited.run)")
        #expect(credited.run.register == "talk -5.00 (cutoff 0.00), attribution 5.00 (cutoff 0.00, \(LexicalEmbedder().model))")
        #expect(try store.count() == 0)
        // A model fitted on another embedder's vectors says nothing about these; the run says so.
        let elsewhere = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), register: RegisterStep(
            models: ["other-embedder": Self.register(talk: true, attribution: true).models[LexicalEmbedder().model]!])).generate(locale: "en")
        #expect(elsewhere.run.branch == .accepted, "\(elsewhere.run)")
        #expect(elsewhere.run.register == "skipped: no register model fitted on \(LexicalEmbedder().model)'s vectors")
        let accepted = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.goodToo]), register: Self.register(talk: false, attribution: false))
            .generate(locale: "en")
        #expect(accepted.run.branch == .accepted, "\(accepted.run)")
        #expect(try store.count() == 2)
        let none = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.goodThree]), embedder: nil).generate(locale: "en")
        #expect(none.run.register == "skipped: no sentence embedding of the draft (no embedder)")
        // The record survives the store.
        #expect(try store.runs().map(\.register).contains("talk -5.00 (cutoff 0.00), attribution 5.00 (cutoff 0.00, \(LexicalEmbedder().model))"))
    }

    /// A taste model over the lexical embedder's vectors that gives every line these log-odds.
    static func taste(logOdds: Double) -> TasteStep {
        let dimensions = LexicalEmbedder().dimensions
        return TasteStep(models: [LexicalEmbedder().model: TasteModel(
            model: LexicalEmbedder().model, bias: logOdds, cutoff: 0, heldOutAUC: 1, heldOutAccuracy: 1, heldOutLines: 0,
            weights: [Float](repeating: 0, count: dimensions))])
    }

    @Test func tasteScoresTheNoveltyVectorAndRejectsWhatItFindsGeneric() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        // Slightly generic to the embedding: the words carry distinctiveness, taste rejects.
        let rejected = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), taste: Self.taste(logOdds: -0.5))
            .generate(locale: "en")
        #expect(rejected.run.branch == .rejected && rejected.run.gate == "taste", "\(rejected.run)")
        #expect(rejected.run.reason?.contains("reads as generic to the taste model: log-odds -0.50") == true)
        // Plainly generic to the embedding: distinctiveness reads the embedding too, and falls below 5.
        let generic = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), taste: Self.taste(logOdds: -5))
            .generate(locale: "en")
        #expect(generic.run.branch == .rejected && generic.run.gate == "distinctiveness", "\(generic.run)")
        #expect(generic.run.reason?.contains("taste log-odds -5.00") == true, "\(generic.run)")
        #expect(try store.count() == 0)
        let accepted = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), taste: Self.taste(logOdds: 5))
            .generate(locale: "en")
        #expect(accepted.run.branch == .accepted)
        #expect(accepted.gates.last?.gate == .taste)
        #expect(try store.runs().first?.taste?.hasPrefix("log-odds 5.00 (cutoff 0.00, \(LexicalEmbedder().model))") == true)
        // No model fitted on the embedder's vectors, or no embedder: skipped, and the run says why.
        let unfitted = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.goodToo])).generate(locale: "en")
        #expect(unfitted.run.branch == .accepted)
        #expect(unfitted.run.taste == "skipped: no taste model fitted on \(LexicalEmbedder().model)'s vectors")
        let none = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.goodThree]), embedder: nil).generate(locale: "en")
        #expect(none.run.taste == "skipped: no sentence embedding of the draft (no embedder)")
        #expect(TasteStep().evaluate(locale: "nl-NL", vector: [1], model: "m").record
                == "skipped: nl is not one of the languages the taste model was fitted on")
    }

    /// A base model handing back one of the lines its few-shot prompt showed it: the gate names
    /// the copy and nothing is stored.
    @Test func aDraftCopyingItsFewShotExampleIsRejectedAndNotStored() async throws {
        struct CopyingWriter: DraftWriter {
            func write(_ request: DraftRequest, partial: @escaping @Sendable (String) -> Void) async throws -> DraftAnswer {
                .draft(text: request.examples.first ?? "", modelVersion: "copier-1")
            }
        }
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await QuotePipeline(store: store, readiness: FixedReadiness.allAvailable, writer: CopyingWriter(),
                                          judge: ScriptedJudge.scoring(8), embedder: LexicalEmbedder(),
                                          distinctiveness: TestScorer.scorer, draftPrompt: .fewShot, clock: ManualClock())
            .generate(locale: "de", seed: 3)
        let example = try #require(DraftPrompt.examples(.fewShot, locale: "de", seed: 3).first)
        #expect(outcome.run.branch == .rejected && outcome.run.gate == "promptFragment", "\(outcome.run)")
        #expect(outcome.run.reason?.contains("copies the prompt's example \"\(example)\"") == true, "\(outcome.run)")
        #expect(try store.count() == 0)
    }

    @Test func acceptedDraftIsStoredAsGeneratedWithoutAuthorAndItsRunRecorded() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]))
            .generate(locale: "en", theme: "neighbours")
        #expect(outcome.run.branch == .accepted)
        #expect(outcome.run.persistence == .stored)
        let quote = try #require(outcome.quote)
        #expect(quote.source == .generated && quote.author == nil && !quote.isPublicDomain)
        #expect(quote.locale == "en" && quote.modelVersion == "scripted-1")
        #expect(quote.scores?.judgeSource == "model" && quote.scores?.judge.overall == 8)
        #expect(quote.tags.themes == ["neighbours"])
        #expect(outcome.gates.map(\.gate) == DeterministicGate.order + [.novelty, .judge, .distinctiveness])
        let run = try #require(try store.runs().first)
        #expect(run.branch == .accepted && run.quoteID == quote.id && run.modelVersion == "scripted-1")
        #expect(run.noveltyProven == false, "an empty library cannot prove novelty")
        #expect(run.readiness == FixedReadiness.allAvailable.report)
    }

    @Test func draftRequestUsesProductionOptions() async throws {
        let folder = try TemporaryFolder()
        let writer = ScriptedWriter(drafts: [Self.good])
        _ = await Self.pipeline(try QuoteStore.open(path: folder.path("lib.sqlite")), writer: writer).generate(locale: "de")
        let request = DraftRequest(locale: "de")
        #expect(request.temperature == 0.7 && request.maximumTokens == 64)
        #expect(writer.log.all.first?.contains("German") == true)
    }

    @Test func gateRejectionStoresNothingAndRecordsGateAndReason() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: ["“\(Self.good)”"])).generate(locale: "en")
        #expect(outcome.run.branch == .rejected)
        #expect(outcome.run.gate == "wrappingQuotes")
        #expect(outcome.run.reason?.contains("quotation") == true)
        #expect(try store.count() == 0)
        #expect(try store.runs().first?.draftText == "“\(Self.good)”")
    }

    @Test func secondCopyIsRejectedAsNearDuplicateWithNoveltyProven() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let pipeline = Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good, Self.good.replacingOccurrences(of: ".", with: "!")]))
        #expect(await pipeline.generate(locale: "en").run.branch == .accepted)
        let second = await pipeline.generate(locale: "en")
        #expect(second.run.branch == .rejected && second.run.gate == "novelty")
        #expect(second.run.noveltyProven)
        #expect(try store.count() == 1)
    }

    @Test func failingEmbedderRejectsAndStoresNothing() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), embedder: FailingEmbedder())
            .generate(locale: "en")
        #expect(outcome.run.branch == .rejected && outcome.run.gate == "novelty" && !outcome.run.noveltyProven)
        #expect(outcome.run.reason?.contains("embedding backend offline") == true, "\(outcome.run.reason ?? "")")
        #expect(try store.count() == 0)
    }

    @Test func lowJudgeScoreRejects() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), judge: ScriptedJudge.scoring(5))
            .generate(locale: "en")
        #expect(outcome.run.branch == .rejected && outcome.run.gate == "judge")
        #expect(outcome.run.judgeSource == "model")
        #expect(try store.count() == 0)
    }

    @Test(arguments: [
        ScriptedJudge(behaviour: .answer(.json("I think this is a lovely sentence, 9/10!"))),
        ScriptedJudge(behaviour: .answer(.json(#"{"quality": 12, "originality": 7, "warmth": 7, "overall": 9}"#))),
        ScriptedJudge(behaviour: .answer(.refused("I can't rate that"))),
        ScriptedJudge(behaviour: .fail),
    ])
    func judgeGarbageRefusalOrFailureFallsBackToTheBoundedScoreAndSaysSo(judge: ScriptedJudge) async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), judge: judge).generate(locale: "en")
        #expect(outcome.run.judgeSource?.hasPrefix("fallback: ") == true, "\(String(describing: outcome.run.judgeSource))")
        let judged = try #require(outcome.gates.first { $0.gate == .judge })
        #expect((judged.score ?? 99) <= FallbackJudge.ceiling)
        #expect(outcome.run.branch == .accepted, "a concrete, warm line passes the fallback")
        #expect(try store.quote(id: #require(outcome.quote?.id))?.scores?.judgeSource.hasPrefix("fallback") == true)
    }

    @Test func unavailableJudgeIsNotAskedAndTheFallbackIsRecorded() async throws {
        let folder = try TemporaryFolder()
        var report = FixedReadiness.allAvailable.report
        report.judge = .unavailable("offline")
        let outcome = await Self.pipeline(try QuoteStore.open(path: folder.path("lib.sqlite")), writer: ScriptedWriter(drafts: [Self.good]),
                                          judge: ScriptedJudge(behaviour: .fail), readiness: FixedReadiness(report: report))
            .generate(locale: "en")
        #expect(outcome.run.judgeSource == "fallback: judge unavailable (offline)")
    }

    @Test func fallbackRejectsAnAbstractFormula() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: ["Kindness is the key to happiness and success in every part of life."]),
                                          judge: nil).generate(locale: "en")
        #expect(outcome.run.branch == .rejected)
        #expect(["judge", "distinctiveness"].contains(outcome.run.gate ?? ""))
        #expect(try store.count() == 0)
    }

    @Test func noDraftModelMeansUnavailableAndTheWriterIsNeverCalled() async throws {
        let folder = try TemporaryFolder()
        let writer = ScriptedWriter(drafts: [Self.good])
        let readiness = FixedReadiness(report: ReadinessReport(primary: .unavailable("modelNotReady"), secondary: .unavailable("offline"),
                                                               judge: .unavailable("offline"), embedder: .unavailable("offline")))
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: writer, readiness: readiness).generate(locale: "en")
        #expect(outcome.run.branch == .unavailable)
        #expect(outcome.run.reason?.contains("modelNotReady") == true)
        #expect(writer.log.all.isEmpty)
        #expect(try store.runs().first?.readiness.secondary == .unavailable("offline"))
    }

    @Test func unsupportedLocaleIsUnavailable() async throws {
        let folder = try TemporaryFolder()
        let outcome = await Self.pipeline(try QuoteStore.open(path: folder.path("lib.sqlite")), writer: ScriptedWriter(drafts: [Self.good]))
            .generate(locale: "nl")
        #expect(outcome.run.branch == .unavailable && outcome.run.reason?.contains("nl") == true)
    }

    @Test func refusalIsRecordedAsRefused() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter([.refuse("policy")])).generate(locale: "en")
        #expect(outcome.run.branch == .refused && outcome.run.reason == "policy")
        #expect(try store.count() == 0 && store.runs().count == 1)
    }

    @Test func writerFailureIsUnavailableWithTheError() async throws {
        let folder = try TemporaryFolder()
        let outcome = await Self.pipeline(try QuoteStore.open(path: folder.path("lib.sqlite")),
                                          writer: ScriptedWriter([.fail(DraftError(.unavailable, "backend crashed"))]))
            .generate(locale: "en")
        #expect(outcome.run.branch == .unavailable && outcome.run.reason?.contains("backend crashed") == true)
    }

    @Test(arguments: [false, true])
    func expiredBudgetCancelsStoresNothingAndRecordsATimeout(ignoresCancellation: Bool) async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let clock = ManualClock()
        let writer = ScriptedWriter([.waits(Self.good, .seconds(300), clock, ignoresCancellation: ignoresCancellation)])
        let pipeline = Self.pipeline(store, writer: writer, clock: clock)
        let task = Task { await pipeline.generate(locale: "en", budget: .voice) }
        await clock.waitForSleepers(2)  // the budget's timer and the writer
        clock.advance(by: .seconds(19))
        #expect(try store.runs().isEmpty, "nothing ends before the deadline")
        clock.advance(by: .seconds(1))
        // Answered at the deadline, though the writer (maybe ignoring cancellation) still waits.
        let outcome = await task.value
        #expect(outcome.run.branch == .timeout && outcome.run.budget == "voice")
        #expect(outcome.run.reason?.contains("voice budget of 20.0 seconds expired") == true)
        #expect(outcome.run.persistence == .notAttempted)
        #expect(outcome.run.elapsedMilliseconds == 20_000)
        #expect(try store.count() == 0)
        #expect(try store.runs().first?.branch == .timeout)
        clock.advance(by: .seconds(300))  // lets a writer that ignored the cancellation end
    }

    @Test func callerCancellationStopsTheAttemptAndStoresNothing() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let clock = ManualClock()
        let pipeline = Self.pipeline(store, writer: ScriptedWriter([.waits(Self.good, .seconds(30), clock, ignoresCancellation: false)]),
                                     clock: clock)
        let task = Task { await pipeline.generate(locale: "en") }
        await clock.waitForSleepers(2)
        task.cancel()
        let outcome = await task.value
        #expect(outcome.run.branch == .timeout && outcome.run.reason?.contains("cancelled") == true)
        #expect(try store.count() == 0)
    }

    @Test func oneBudgetCoversEveryAttemptOfACommandDraftsAndJudgeIncluded() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let clock = ManualClock()
        // Each draft takes 15 s and each judgement 10 s: the 45 s budget holds one whole attempt
        // and the draft of the second; its judgement crosses the deadline.
        let writer = ScriptedWriter([.takes(Self.good, .seconds(15), clock), .takes(Self.goodToo, .seconds(15), clock)])
        var judge = ScriptedJudge.scoring(8)
        judge.takes = (.seconds(10), clock)
        let outcomes = await Self.pipeline(store, writer: writer, judge: judge, clock: clock)
            .generate(count: 3, attempts: 5, locale: "en", budget: .foreground)
        #expect(outcomes.map(\.run.branch) == [.accepted, .timeout])
        #expect(writer.log.all.count == 2, "no attempt starts after the deadline")
        #expect(try store.count() == 1 && store.quote(matching: Self.goodToo) == nil)
        #expect(clock.now == .seconds(50))
    }

    @Test func attemptsMeansAttemptsInTotal() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let writer = ScriptedWriter(drafts: ["Too short."])
        let outcomes = await Self.pipeline(store, writer: writer).generate(count: 2, attempts: 3, locale: "en", budget: .foreground)
        #expect(outcomes.count == 3 && writer.log.all.count == 3)
        #expect(try store.runs().count == 3)
        let defaulted = await Self.pipeline(store, writer: writer).generate(count: 2, locale: "en", budget: .foreground)
        #expect(defaulted.count == 2 * QuotePipeline.defaultAttemptsPerQuote)
    }

    @Test func eachStageIsTimedInTheRunRecord() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let clock = ManualClock()
        var judge = ScriptedJudge.scoring(8)
        judge.takes = (.milliseconds(700), clock)
        let writer = ScriptedWriter([.takes(Self.good, .milliseconds(1500), clock), .takes("Too short.", .milliseconds(300), clock)])
        let pipeline = Self.pipeline(store, writer: writer, judge: judge, clock: clock)
        let accepted = await pipeline.generate(locale: "en")
        #expect(accepted.run.branch == .accepted)
        let stored = try #require(try store.runs().first)
        #expect(stored.timings == accepted.run.timings)
        #expect(stored.timings[.draft] == 1500 && stored.timings[.judge] == 700)
        for stage in StageTimings.Stage.allCases { #expect(stored.timings[stage] != nil, "\(stage) was reached") }
        #expect(stored.elapsedMilliseconds == 2200)

        let rejected = await pipeline.generate(locale: "en")
        #expect(rejected.run.gate == "length" && rejected.run.timings[.draft] == 300 && rejected.run.timings[.gates] != nil)
        #expect([.novelty, .judge, .distinctiveness, .persist].allSatisfy { rejected.run.timings[$0] == nil },
                "stages after the failing gate were not reached")
        #expect(try store.runs().first?.timings == rejected.run.timings)
    }

    @Test func aPrimaryDraftFailingAGateSendsTheNextAttemptsToTheSecondary() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let writer = ScriptedWriter([.drafted("“\(Self.good)”", side: .primary, modelVersion: "primary-7"),
                                     .drafted(Self.good, side: .secondary, modelVersion: "secondary-3")])
        let outcomes = await Self.pipeline(store, writer: writer).generate(count: 1, attempts: 3, locale: "en", budget: .foreground)
        #expect(outcomes.map(\.run.branch) == [.rejected, .accepted])
        #expect(writer.sides.all == ["routed", "secondary"])
        let escalated = try #require(try store.runs().first)
        #expect(escalated.escalation == Escalation(gate: .wrappingQuotes, primaryModelVersion: "primary-7"))
        #expect(escalated.modelVersion == "secondary-3" && escalated.servedBy == .secondary)
        #expect(try store.runs().last?.escalation == nil && store.runs().last?.servedBy == .primary)
    }

    @Test func escalationFollowsThePolicyAndTheSecondarysReadiness() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let bad = ScriptedWriter.Step.drafted("Too short.", side: .primary, modelVersion: "primary-7")
        let notListed = ScriptedWriter([bad])
        _ = await Self.pipeline(store, writer: notListed, escalation: EscalationPolicy(gates: [.judge]))
            .generate(count: 1, attempts: 2, locale: "en", budget: .foreground)
        #expect(notListed.sides.all == ["routed", "routed"], "length is not in the policy")

        let noSecondary = ScriptedWriter([bad])
        let readiness = FixedReadiness(report: ReadinessReport(primary: .available, secondary: .unavailable("offline"),
                                                               judge: .available, embedder: .available))
        _ = await Self.pipeline(store, writer: noSecondary, readiness: readiness)
            .generate(count: 1, attempts: 2, locale: "en", budget: .foreground)
        #expect(noSecondary.sides.all == ["routed", "routed"], "an unavailable secondary is not asked")

        let fromSecondary = ScriptedWriter([.drafted("Too short.", side: .secondary, modelVersion: "secondary-3")])
        _ = await Self.pipeline(store, writer: fromSecondary).generate(count: 1, attempts: 2, locale: "en", budget: .foreground)
        #expect(fromSecondary.sides.all == ["routed", "routed"], "only a primary's draft escalates")
    }

    @Test func everyGateEscalatesByDefaultAndUnknownNamesAreRefused() {
        #expect(EscalationPolicy.everyGate.gates == Set(GateName.allCases))
        guard case .failure(let unknown) = EscalationPolicy.parse(["length", "timeout"]) else {
            Issue.record("timeout is not a gate"); return
        }
        #expect(unknown.description.hasPrefix("unknown gate \"timeout\" (expected any of: empty, attribution, promptFragment"))
        #expect((try? EscalationPolicy.parse(["length", "judge"]).get()) == EscalationPolicy(gates: [.length, .judge]))
    }

    @Test func standardBudgetsMatchTheDesign() {
        #expect(Budget.foreground.limit == .seconds(45))
        #expect(Budget.voice.limit == .seconds(20))
        #expect(Budget.batch.limit == .seconds(120))
    }

    @Test func storageFailureOnAReadOnlyLibraryStoresNothingAndSaysWhy() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("lib.sqlite")
        _ = try QuoteStore.open(path: path)
        let reader = try QuoteStore.openReadOnly(path: path)
        let outcome = await Self.pipeline(reader, writer: ScriptedWriter(drafts: [Self.good])).generate(locale: "en")
        #expect(outcome.run.branch == .storageFailed)
        #expect(outcome.run.reason?.contains("read-only") == true)
        guard case .failed = outcome.run.persistence else { Issue.record("persistence should be failed"); return }
        #expect(!outcome.runRecorded)
        #expect(try QuoteStore.open(path: path).count() == 0)
    }

    @Test func fullDiskDuringPersistRollsBackAndTheRunSaysWhy() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("lib.sqlite")
        let pages = try QuoteStore.open(path: path).withConnection { try $0.scalarInt("PRAGMA page_count") }
        let store = try QuoteStore.open(path: path, maximumPageCount: Int(pages))
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: [Self.good]), embedder: WideEmbedder())
            .generate(locale: "en")
        #expect(outcome.run.branch == .storageFailed)
        #expect(outcome.run.reason?.contains("full") == true)
        #expect(try QuoteStore.open(path: path).count() == 0)
        #expect(try QuoteStore.open(path: path).withConnection { try $0.scalarInt("SELECT count(*) FROM quote_tags") } == 0)
    }

    @Test func aBatchStopsAtTheRequestedCount() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let writer = ScriptedWriter(drafts: [Self.good, "Too short.", Self.goodToo, Self.goodThree, Self.good])
        let outcomes = await Self.pipeline(store, writer: writer).generate(count: 3, locale: "en", budget: .batch)
        #expect(outcomes.map(\.run.branch) == [.accepted, .rejected, .accepted, .accepted])
        #expect(try store.count() == 3 && store.runs().count == 4)
        #expect(outcomes.allSatisfy { $0.run.budget == "batch" })
    }

    @Test func batchTimeoutKeepsEarlierQuotesAndStoresNothingOfTheCandidateInFlight() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let clock = ManualClock()
        let writer = ScriptedWriter([.takes(Self.good, .seconds(100), clock), .takes(Self.goodToo, .seconds(30), clock)])
        let outcomes = await Self.pipeline(store, writer: writer, clock: clock).generate(count: 3, locale: "en", budget: .batch)
        #expect(outcomes.map(\.run.branch) == [.accepted, .timeout])
        #expect(try store.count() == 1)
        #expect(try store.quote(matching: Self.goodToo) == nil)
    }

    @Test func partialDraftTextReachesTheCallerButOnlyAcceptedTextIsStored() async throws {
        let folder = try TemporaryFolder()
        let store = try QuoteStore.open(path: folder.path("lib.sqlite"))
        let seen = CallLog()
        let outcome = await Self.pipeline(store, writer: ScriptedWriter(drafts: ["#blessed " + Self.good]))
            .generate(locale: "en", partial: { seen.append($0) })
        #expect(!seen.all.isEmpty)
        #expect(outcome.run.branch == .rejected && outcome.run.gate == "markup")
        #expect(try store.count() == 0)
    }
}
