import Foundation
import PluginFixtures
import Testing

/// `tandem eval` runs the repository's `eval/protocol.json` on the fake plugin and writes the
/// JSON report and the Markdown summary.
@Suite struct EvalCLITests {
    static let protocolPath = PackagePaths.root + "/eval/protocol.json"

    @Test func theProtocolOnTheFakeWritesReportAndSummary() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        let out = cli.folder + "/report"
        let outcome = try await cli.run(["eval", "--protocol", Self.protocolPath, "--out", out, "--budget-limit-ms", "5000", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let summary = try outcome.json()

        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as? [String: Any])
        let protocolFile = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.protocolPath))) as? [String: Any])
        let cells = (protocolFile["readinessStates"] as? [Any] ?? []).count * (protocolFile["locales"] as? [Any] ?? []).count
            * (protocolFile["prompts"] as? [Any] ?? []).count * (protocolFile["budgets"] as? [Any] ?? []).count
            * (protocolFile["repetitions"] as? Int ?? 0)
        #expect(report["cells"] as? Int == cells)
        let records = try #require(report["records"] as? [[String: Any]])
        #expect(records.count == summary["attempts"] as? Int)
        #expect(records.count >= cells)

        // The fake writes one English line: accepted once in English, rejected by language elsewhere,
        // unavailable when no side is ready, never a timeout.
        #expect(summary["accepted"] as? Int ?? 0 >= 1)
        #expect(summary["timeouts"] as? Int == 0)
        let gates = try #require(summary["rejectionsByGate"] as? [String: Int])
        #expect(gates["language"] ?? 0 > 0)
        // Per locale: the English line is rejected by language in German, never in English.
        let byLocale = try #require(summary["rejectionsByLocale"] as? [String: [String: Int]])
        #expect(byLocale["de"]?["language"] ?? 0 > 0)
        #expect(byLocale["en"]?["language"] == nil)
        let perLocale: Int = byLocale.values.map { $0.values.reduce(0, +) }.reduce(0, +)
        let inAll: Int = gates.values.reduce(0, +)
        #expect(perLocale == inAll)
        let branches = try #require(summary["branches"] as? [String: Int])
        #expect(branches["unavailable"] ?? 0 > 0)
        #expect((summary["latencyByBranch"] as? [String: Any])?["accepted"] != nil)

        let markdown = try String(contentsOfFile: out + "/summary.md", encoding: .utf8)
        #expect(markdown.hasPrefix("# Quote pipeline evaluation"))
        for heading in ["## Terminal branches", "## Rejections per gate", "## Acceptance by locale", "## Acceptance by readiness state"] {
            #expect(markdown.contains(heading), "\(heading)")
        }
        #expect(markdown.contains("| language |"))
        let germanRow = markdown.split(separator: "\n").first { $0.hasPrefix("| de |") }
        let germanLanguage: Int = byLocale["de"]?["language"] ?? 0
        #expect(germanRow?.contains("| language \(germanLanguage)") == true, "\(germanRow ?? "no de row")")
        // The evaluation has a library of its own; the configured one is untouched.
        #expect(FileManager.default.fileExists(atPath: out + "/eval.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: cli.libraryPath))
    }

    @Test func aBadProtocolNamesTheFileAndTheProblem() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        let path = cli.folder + "/protocol.json"
        try #"{"version": 1, "description": "x", "readinessStates": [], "locales": ["en"], "prompts": [], "budgets": [], "repetitions": 1, "seed": 1}"#
            .write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await cli.run(["eval", "--protocol", path])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("protocol \(path): readinessStates, locales, prompts and budgets must each have at least one entry"))
    }
}
