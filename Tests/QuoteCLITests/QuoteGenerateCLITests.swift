import Foundation
import PluginFixtures
import QuoteLibrary
import Testing

/// `tandem quote generate` on the fake plugin (draft and judge sides scripted): accepted,
/// rejected, timeout and unavailable paths, what each stores and says.
@Suite struct QuoteGenerateCLITests {
    @Test func anAcceptedDraftIsStoredAsGeneratedWithoutAuthor() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        let outcome = try await cli.run(["quote", "generate", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try outcome.json()
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results.count == 1)
        #expect(results[0]["branch"] as? String == "accepted")
        #expect(results[0]["persistence"] as? String == "stored")
        #expect(results[0]["judgeSource"] as? String == "model")
        #expect(json["offered"] == nil)

        let generated = try cli.library().list(source: .generated)
        #expect(generated.count == 1)
        let quote = try #require(generated.first)
        #expect(quote.text == QuoteCLI.goodDraft)
        #expect(quote.author == nil && !quote.isPublicDomain && quote.locale == "en")
        #expect(quote.scores?.judge.overall == 7)
        #expect(quote.modelVersion == "tandem-fake-1")
        let run = try #require(try cli.library().runs().first)
        #expect(run.branch == .accepted && run.quoteID == quote.id)

        let listed = try await cli.run(["quote", "list", "--source", "generated"])
        #expect(listed.stdout.contains("#\(quote.id) [en, generated] \(QuoteCLI.goodDraft)"))
    }

    @Test func aLowJudgeScoreRejectsAndStoresNothing() async throws {
        let cli = try QuoteCLI(judge: ["guided_reply": #"{"quality": 4, "originality": 3, "warmth": 5, "overall": 4}"#])
        defer { cli.cleanUp() }
        let outcome = try await cli.run(["quote", "generate"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.hasPrefix("1. rejected by judge: overall 4.0 < 6"))
        #expect(outcome.stdout.contains("(draft: \(QuoteCLI.goodDraft))"))
        #expect(try cli.library().count(source: .generated) == 0)
        let runs = try cli.library().runs()
        #expect(runs.count == QuotePipeline.defaultAttemptsPerQuote)
        #expect(runs.allSatisfy { $0.branch == .rejected && $0.gate == "judge" && $0.persistence == .notAttempted })
    }

    @Test func aGateRejectionNamesTheGateAndTheDraft() async throws {
        let attributed = "Every small kindness on the bus is a light we carry home. — Mark Twain"
        let cli = try QuoteCLI(draft: ["guided_reply": QuoteCLI.guided(attributed)])
        defer { cli.cleanUp() }
        let json = try await cli.run(["quote", "generate", "--json"]).json()
        let first = try #require((json["results"] as? [[String: Any]])?.first)
        #expect(first["branch"] as? String == "rejected")
        #expect(first["gate"] as? String == "attribution")
        #expect(first["draft"] as? String == attributed)
        #expect(try cli.library().count(source: .generated) == 0)
    }

    @Test func unparseableJudgeOutputFallsBackAndSaysSo() async throws {
        let cli = try QuoteCLI(judge: ["guided_reply": "{\"quality\": 9"])
        defer { cli.cleanUp() }
        let json = try await cli.run(["quote", "generate", "--json"]).json()
        let first = try #require((json["results"] as? [[String: Any]])?.first)
        #expect((first["judgeSource"] as? String)?.hasPrefix("fallback: judge [malformed]") == true, "\(first)")
    }

    /// A draft backend whose plugin crashes (in its own child process): the command fails with
    /// `backendCrashed` and nothing is stored.
    @Test func aCrashingDraftBackendStoresNothing() async throws {
        let plugins = try PluginFolder()
        try plugins.compile("crashing.so", source: PluginFolder.crashingSource)
        try FileManager.default.copyItem(atPath: QuoteCLI.pluginsDirectory + "/tandem.fake.so", toPath: plugins.file("tandem.fake.so"))
        let cli = try QuoteCLI(draft: ["crash": "segfault"], draftPlugin: "test.crashing", pluginsDirectory: plugins.path)
        defer { cli.cleanUp() }
        let outcome = try await cli.run(["quote", "generate", "--json"])
        #expect(outcome.status != 0)
        #expect(outcome.stdout.contains("backendCrashed") || outcome.stderr.contains("backendCrashed"), "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(try cli.library().count(source: .generated) == 0)
        #expect(try cli.library().runs().allSatisfy { $0.persistence == .notAttempted })
    }

    @Test func aTimeoutStoresNothingAndOffersACuratedQuote() async throws {
        let cli = try QuoteCLI(draft: ["hang": "true", "guided_reply": QuoteCLI.guided(QuoteCLI.goodDraft)])
        defer { cli.cleanUp() }
        let started = ContinuousClock.now
        let outcome = try await cli.run(["quote", "generate", "--budget", "voice", "--budget-limit-ms", "300", "--json"])
        // The backend hangs until cancelled, so only the budget can end the call; the bound is
        // loose because a full test run on 2 cores can delay a process by many seconds.
        #expect(ContinuousClock.now - started < .seconds(60), "the budget, not the hanging backend, ends the call")
        #expect(outcome.status == 5, "\(outcome.stderr)")
        let json = try outcome.json()
        let first = try #require((json["results"] as? [[String: Any]])?.first)
        #expect(first["branch"] as? String == "timeout")
        #expect(first["draft"] == nil)
        let offered = try #require(json["offered"] as? [String: Any])
        #expect(offered["source"] as? String == "curated" && offered["author"] is String)
        #expect(try cli.library().count(source: .generated) == 0)
        let run = try #require(try cli.library().runs().first)
        #expect(run.branch == .timeout && run.budget == "voice" && run.persistence == .notAttempted)

        let text = try await cli.run(["quote", "generate", "--budget", "voice", "--budget-limit-ms", "300"])
        #expect(text.stdout.contains("1. timeout: the voice budget"))
        #expect(text.stdout.contains("instead, from the curated library: #"))
    }

    @Test func noAvailableModelIsExitFourWithACuratedOffer() async throws {
        let cli = try QuoteCLI(draft: ["availability": "modelNotReady"])
        defer { cli.cleanUp() }
        let outcome = try await cli.run(["quote", "generate", "--locale", "de"])
        #expect(outcome.status == 4)
        #expect(outcome.stdout.contains("1. unavailable: no draft model available (primary modelNotReady"))
        #expect(outcome.stdout.contains("instead, from the curated library: #"))
        #expect(outcome.stdout.contains("[de, curated]"))
    }

    @Test func aBatchSharesOneBudgetAndStopsAtTheAttemptLimit() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        // The fake writes the same line every time: one is accepted, the rest are near-duplicates.
        let json = try await cli.run(["quote", "generate", "--budget", "batch", "--count", "2", "--json"]).json()
        let branches = (json["results"] as? [[String: Any]] ?? []).compactMap { $0["branch"] as? String }
        #expect(branches.count == 2 * QuotePipeline.defaultAttemptsPerQuote)
        #expect(branches.filter { $0 == "accepted" }.count == 1)
        let gates = (json["results"] as? [[String: Any]] ?? []).compactMap { $0["gate"] as? String }
        #expect(gates.allSatisfy { $0 == "novelty" } && gates.count == branches.count - 1)
        #expect(try cli.library().count(source: .generated) == 1)
        // Twenty quotes wanted and no --attempts: the default is capped at the most a command may make.
        let many = try await cli.run(["quote", "generate", "--budget", "batch", "--count", "20", "--json"])
        #expect(many.status == 1, "\(many.stderr)")
        #expect((try many.json()["results"] as? [[String: Any]])?.count == QuotePipeline.maximumAttempts)
    }

    @Test func badOptionsAreUsageErrors() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        #expect(try await cli.run(["quote", "generate", "--budget", "lunch"]).stderr.contains("expected foreground, voice or batch"))
        #expect(try await cli.run(["quote", "generate", "--count", "0"]).status == 2)
        #expect(try await cli.run(["quote", "generate", "--mode", "sideways"]).stderr.contains("unknown mode \"sideways\""))
        #expect(try await cli.run(["quote", "generate", "--count", "3", "--attempts", "2"]).stderr
            .contains("--attempts must be 3...80 (at least --count), got 2"))
    }

    @Test func attemptsMeansAttemptsInTotalWithinOneBudget() async throws {
        let cli = try QuoteCLI(judge: ["guided_reply": #"{"quality": 4, "originality": 3, "warmth": 5, "overall": 4}"#])
        defer { cli.cleanUp() }
        let json = try await cli.run(["quote", "generate", "--count", "2", "--attempts", "3", "--json"]).json()
        #expect((json["results"] as? [[String: Any]])?.count == 3)
        #expect(try cli.library().runs().count == 3)
    }

    /// The primary (local) writes a draft wrapped in quotation marks; the secondary (cloud) a
    /// good one. Both are the fake plugin through the real loader.
    @Test func aPrimaryDraftFailingAGateEscalatesToTheSecondary() async throws {
        let cli = try QuoteCLI(draft: ["guided_reply": QuoteCLI.guided("“\(QuoteCLI.goodDraft)”"), "model_version": "local-7"],
                               secondary: ["guided_reply": QuoteCLI.guided(QuoteCLI.goodDraft), "model_version": "cloud-3"])
        defer { cli.cleanUp() }
        let outcome = try await cli.run(["quote", "generate", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let results = try #require(try outcome.json()["results"] as? [[String: Any]])
        #expect(results.compactMap { $0["branch"] as? String } == ["rejected", "accepted"])
        #expect(results[0]["servedBy"] as? String == "primary" && results[0]["modelVersion"] as? String == "local-7")
        #expect(results[1]["servedBy"] as? String == "secondary" && results[1]["modelVersion"] as? String == "cloud-3")
        let escalation = try #require(results[1]["escalation"] as? [String: Any])
        #expect(escalation["gate"] as? String == "wrappingQuotes" && escalation["primaryModelVersion"] as? String == "local-7")
        let stored = try #require(try cli.library().runs().first)
        #expect(stored.escalation == Escalation(gate: .wrappingQuotes, primaryModelVersion: "local-7"))
        #expect(stored.modelVersion == "cloud-3" && stored.servedBy == .secondary)
        #expect(try cli.library().list(source: .generated).first?.modelVersion == "cloud-3")
        let text = try await cli.run(["quote", "generate"])
        #expect(text.stdout.contains("2. [secondary, after the primary failed wrappingQuotes] "), "\(text.stdout)")
    }

    @Test func escalationFollowsQuoteEscalateOn() async throws {
        let cli = try QuoteCLI(draft: ["guided_reply": QuoteCLI.guided("“\(QuoteCLI.goodDraft)”")],
                               secondary: ["guided_reply": QuoteCLI.guided(QuoteCLI.goodDraft)], escalateOn: ["judge"])
        defer { cli.cleanUp() }
        let results = try await cli.run(["quote", "generate", "--attempts", "2", "--json"]).json()["results"] as? [[String: Any]]
        #expect(results?.compactMap { $0["servedBy"] as? String } == ["primary", "primary"])
        #expect(try cli.library().count(source: .generated) == 0)

        let wrong = try QuoteCLI(escalateOn: ["timeout"])
        defer { wrong.cleanUp() }
        let refused = try await wrong.run(["quote", "generate"])
        #expect(refused.status == 3 && refused.stderr.contains("quote.escalate_on") && refused.stderr.contains("unknown gate \"timeout\""),
                "\(refused.stderr)")
    }
}
