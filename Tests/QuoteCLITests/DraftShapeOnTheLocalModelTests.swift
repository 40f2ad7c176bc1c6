import Foundation
import PluginFixtures
import QuoteLibrary
import Testing

/// The draft's shape is enforced while decoding: `quote generate` on the real local model
/// (`tandem.llama`, guided by the draft schema's pattern) writes drafts that match
/// `DraftShape.pattern` and pass the gate's shape checks, whatever the seed (but for `length` on a
/// draft that used the pattern's spare 19th word, which the mask ended). A draft that ran out of
/// tokens inside the line is the unfinished `{"quote":"…` object, which the gate rejects as a
/// prompt fragment. The other gates (judge, distinctiveness) may still reject them: this is about
/// shape, not taste.
@Suite struct DraftShapeOnTheLocalModelTests {
    static let modelPath = PackagePaths.models + "/SmolLM2-135M-Instruct.Q4_1.gguf"

    @Test func guidedDraftsOfTheLocalModelConformToThePattern() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        try """
            {"plugins_dir": "\(QuoteCLI.pluginsDirectory)", "mode": "local-only", "store": "lib.sqlite",
             "backends": {"local": {"plugin": "tandem.llama",
                                    "settings": {"model": "\(Self.modelPath)", "context": 1024, "threads": 1}}}}
            """.write(toFile: cli.configPath, atomically: true, encoding: .utf8)
        let outcome = try await cli.run(["quote", "generate", "--count", "4", "--attempts", "4", "--seed", "11",
                                         "--budget", "batch", "--theme", "the first snow of the year", "--json"])
        let results = try #require(try outcome.json()["results"] as? [[String: Any]], "\(outcome.stderr)")
        #expect(results.count == 4 && results.allSatisfy { $0["branch"] as? String != "timeout" }, "\(results)")
        let pattern = try NSRegularExpression(pattern: DraftShape.pattern)
        var finished = 0
        for result in results {
            let draft = try #require(result["draft"] as? String, "\(result)")
            if draft.hasPrefix("{\"quote\":") {
                let verdict = DeterministicGate().evaluate(draft, locale: "en").first { !$0.passed }
                #expect(verdict?.gate == .promptFragment, "ran out of tokens: \(draft)")
                continue
            }
            finished += 1
            let whole = NSRange(draft.startIndex..., in: draft)
            #expect(pattern.firstMatch(in: draft, range: whole)?.range == whole, "does not match the pattern: \(draft)")
            // A draft that used the pattern's spare word was ended by the mask: too long.
            let tooLong = QuoteText.words(draft).count > DeterministicGate.wordLimits.upperBound
            let shape: Set<GateName> = [.empty, .wrappingQuotes, .markup, .sentenceCount, .length]
            for verdict in DeterministicGate().evaluate(draft, locale: "en") where shape.contains(verdict.gate) {
                #expect(verdict.passed == (verdict.gate != .length || !tooLong),
                        "\(verdict.gate.rawValue): \(verdict.passed) on \(draft): \(verdict.reason ?? "")")
            }
        }
        #expect(finished >= 3, "only \(finished) of 4 drafts finished within the token limit")
    }
}
