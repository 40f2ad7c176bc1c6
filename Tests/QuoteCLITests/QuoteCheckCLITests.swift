import Foundation
import Testing

/// `tandem quote check`: the `--json` contract, the verdict of each gate, and the exit status.
@Suite struct QuoteCheckCLITests {
    /// The exact key sets of the contract: {accepted, detectedLanguage, gates: [{gate, passed, reason, score}]}.
    static func expectShape(_ json: [String: Any]) throws {
        #expect(Set(json.keys) == ["accepted", "detectedLanguage", "gates"])
        #expect(json["accepted"] is Bool)
        #expect(json["detectedLanguage"] is String || json["detectedLanguage"] is NSNull)
        let gates = try #require(json["gates"] as? [[String: Any]])
        #expect(!gates.isEmpty)
        for gate in gates {
            #expect(Set(gate.keys) == ["gate", "passed", "reason", "score"])
            #expect(gate["gate"] is String)
            #expect(gate["passed"] is Bool)
            #expect(gate["reason"] is String || gate["reason"] is NSNull)
            #expect(gate["score"] is NSNumber || gate["score"] is NSNull)
        }
    }

    static func failed(_ json: [String: Any]) -> [String] {
        (json["gates"] as? [[String: Any]] ?? []).filter { $0["passed"] as? Bool == false }.compactMap { $0["gate"] as? String }
    }

    @Test func anAcceptableDraftPassesEveryGateWithExitZero() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        let outcome = try await cli.run(["quote", "check", QuoteCLI.goodDraft, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try outcome.json()
        try Self.expectShape(json)
        #expect(json["accepted"] as? Bool == true)
        #expect(json["detectedLanguage"] as? String == "en")
        let names = (json["gates"] as? [[String: Any]] ?? []).compactMap { $0["gate"] as? String }
        #expect(names.first == "empty" && names.last == "distinctiveness" && names.contains("novelty"))
        #expect(!names.contains("judge"), "the judge runs only with --judge")
    }

    @Test(arguments: [
        ("", "en", "empty"),
        ("The sun rose. The birds sang over the quiet little town this morning.", "en", "sentenceCount"),
        ("Every small kindness on the bus is a light we carry home. — Mark Twain", "en", "attribution"),
        ("\"Every small kindness on the bus is a light we carry home.\"", "en", "wrappingQuotes"),
        ("Everything happens for a reason, so follow your dreams and never give up.", "en", "cliche"),
        ("Der alte Mann gießt jeden Morgen die Blumen auf dem Balkon seiner Tochter.", "en", "language"),
        (#"{"quote": "She folds the last warm towel"#, "en", "promptFragment"),
    ])
    func aRejectedDraftNamesTheGateWithExitOne(text: String, locale: String, gate: String) async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        let outcome = try await cli.run(["quote", "check", text, "--locale", locale, "--json"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let json = try outcome.json()
        try Self.expectShape(json)
        #expect(json["accepted"] as? Bool == false)
        #expect(Self.failed(json).contains(gate), "\(Self.failed(json))")
    }

    @Test func theLanguageVerdictFollowsTheRequestedLocale() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        let german = "Der alte Mann gießt jeden Morgen die Blumen auf dem Balkon seiner Tochter."
        let json = try await cli.run(["quote", "check", german, "--locale", "de", "--json"]).json()
        #expect(json["detectedLanguage"] as? String == "de")
        #expect(!Self.failed(json).contains("language"))
        let text = try await cli.run(["quote", "check", german])
        #expect(text.stdout.contains("FAIL  language"))
        #expect(text.stdout.contains("written in de, expected en"))
        #expect(text.stdout.hasSuffix("rejected (detected language: de)\n"))
    }

    @Test func aStoredQuoteIsANearDuplicate() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        #expect(try await cli.run(["quote", "generate"]).status == 0)
        let json = try await cli.run(["quote", "check", QuoteCLI.goodDraft, "--json"]).json()
        #expect(Self.failed(json) == ["novelty"])
        let novelty = try #require((json["gates"] as? [[String: Any]])?.first { $0["gate"] as? String == "novelty" })
        #expect((novelty["score"] as? Double ?? 0) >= 0.9)
    }

    @Test func theJudgeRunsOnlyWhenAsked() async throws {
        let cli = try QuoteCLI(judge: ["guided_reply": #"{"quality": 3, "originality": 2, "warmth": 4, "overall": 3}"#])
        defer { cli.cleanUp() }
        let judged = try await cli.run(["quote", "check", QuoteCLI.goodDraft, "--judge", "--json"])
        #expect(judged.status == 1)
        let json = try judged.json()
        try Self.expectShape(json)
        #expect(Self.failed(json) == ["judge"])
        let judge = try #require((json["gates"] as? [[String: Any]])?.first { $0["gate"] as? String == "judge" })
        #expect(judge["score"] as? Double == 3)
    }

    /// `--file`: each non-blank line is a draft of its own, checked in order; with `--json` one
    /// report a line, naming its draft; exit 1 when any draft is rejected.
    @Test func aFileOfDraftsGetsOneReportPerDraft() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        let credited = "Every small kindness on the bus is a light we carry home. — Mark Twain"
        let path = cli.folder + "/drafts.txt"
        try "\(QuoteCLI.goodDraft)\n\n   \n\(credited)\n".write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await cli.run(["quote", "check", "--file", path, "--json"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let reports = try outcome.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(reports.count == 2)
        #expect(reports.map { $0["text"] as? String } == [QuoteCLI.goodDraft, credited])
        #expect(reports.map { $0["accepted"] as? Bool } == [true, false])
        for report in reports {
            var contract = report
            contract["text"] = nil
            try Self.expectShape(contract)
        }
        #expect(Self.failed(reports[1]).contains("attribution"))
        let text = try await cli.run(["quote", "check", "--file", path])
        #expect(text.stdout.hasPrefix("draft: \(QuoteCLI.goodDraft)\n"))
        #expect(text.stdout.contains("draft: \(credited)\n") && text.stdout.hasSuffix("rejected (detected language: en)\n"))

        let both = try await cli.run(["quote", "check", QuoteCLI.goodDraft, "--file", path])
        #expect(both.status == 2 && both.stderr.contains("give TEXT or --file PATH, not both"))
        let missing = try await cli.run(["quote", "check", "--file", cli.folder + "/none.txt"])
        #expect(missing.status == 2 && missing.stderr.contains("none.txt: cannot be read"))
        try "\n  \n".write(toFile: path, atomically: true, encoding: .utf8)
        let blank = try await cli.run(["quote", "check", "--file", path])
        #expect(blank.status == 2 && blank.stderr.contains("no drafts (every line is blank)"))
    }

    @Test func badInputIsAUsageError() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        let noText = try await cli.run(["quote", "check"])
        #expect(noText.status == 2 && noText.stderr.contains("no draft text given"))
        let locale = try await cli.run(["quote", "check", QuoteCLI.goodDraft, "--locale", "nl"])
        #expect(locale.status == 2 && locale.stderr.contains("\"nl\" is not supported"))
        let unknown = try await cli.run(["quote", "chek"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown quote command 'chek'"))
    }
}
