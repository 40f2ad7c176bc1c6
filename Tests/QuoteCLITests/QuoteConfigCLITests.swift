import Foundation
import Testing

/// The config's `quote` section (`judge`, `embedder` backend ids): unknown keys and ids are
/// errors naming the key path; an embedder must have the embeddings capability.
@Suite struct QuoteConfigCLITests {
    func withConfig(replacing old: String, by new: String, _ body: (QuoteCLI) async throws -> Void) async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        let text = try String(contentsOfFile: cli.configPath, encoding: .utf8)
        #expect(text.contains(old))
        try text.replacingOccurrences(of: old, with: new).write(toFile: cli.configPath, atomically: true, encoding: .utf8)
        try await body(cli)
    }

    @Test func anUnknownQuoteKeyIsNamed() async throws {
        try await withConfig(replacing: #""quote":{"judge":"judge"}"#, by: #""quote":{"judgee":"judge"}"#) { cli in
            let outcome = try await cli.run(["quote", "today"])
            #expect(outcome.status == 3)
            #expect(outcome.stderr.contains("quote.judgee: unknown key (expected one of: draft, draft_prompt, embedder, escalate_on, judge, judge_method, word_frequencies)"), "\(outcome.stderr)")
        }
    }

    /// A quote setting that names an unknown style, method or backend, or a judge method the
    /// backend cannot serve (the fake does not score text: tandem.log_likelihood/1), is a config
    /// error naming the key path.
    @Test(arguments: [
        (#""quote":{"draft_prompt":"fewshot"}"#, #"quote.draft_prompt: unknown style "fewshot" (expected instructions or few-shot)"#),
        (#""quote":{"judge":"judge","judge_method":"logprob"}"#, #"quote.judge_method: unknown method "logprob" (expected scores or likelihood)"#),
        (#""quote":{"judge":"judge","judge_method":"likelihood"}"#,
         #"quote.judge_method: "likelihood" needs a judge backend that scores text (tandem.log_likelihood/1); backend "judge" (model fake-test) does not"#),
        (#""quote":{"draft":"drafter"}"#, #"quote.draft: unknown backend id "drafter""#),
        (#""quote":{"embedder":"cloud"}"#, #"quote.embedder: unknown backend id "cloud""#),
    ])
    func aBadQuoteSettingIsNamed(quote: String, message: String) async throws {
        try await withConfig(replacing: #""quote":{"judge":"judge"}"#, by: quote) { cli in
            let outcome = try await cli.run(["quote", "generate"])
            #expect(outcome.status == 3)
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        }
    }

    @Test func anEmbedderWithoutTheCapabilityIsRefused() async throws {
        try await withConfig(replacing: #""quote":{"judge":"judge"}"#, by: #""quote":{"embedder":"judge"}"#) { cli in
            // The judge's fake has embeddings; take them away.
            let text = try String(contentsOfFile: cli.configPath, encoding: .utf8)
                .replacingOccurrences(of: #""kind":"test""#, with: #""embedding_dims":"0","kind":"test""#)
            try text.write(toFile: cli.configPath, atomically: true, encoding: .utf8)
            let outcome = try await cli.run(["quote", "generate"])
            #expect(outcome.status == 3)
            #expect(outcome.stderr.contains("quote.embedder: backend \"judge\" (model fake-test) has no embeddings capability"),
                    "\(outcome.stderr)")
        }
    }

    @Test func aBackendEmbedderNamesItsVectorSpace() async throws {
        try await withConfig(replacing: #""quote":{"judge":"judge"}"#, by: #""quote":{"judge":"judge","embedder":"local"}"#) { cli in
            #expect(try await cli.run(["quote", "generate"]).status == 0)
            // The stored quote carries the fake's embedding: checking it again is a proven duplicate.
            let json = try await cli.run(["quote", "check", QuoteCLI.goodDraft, "--json"]).json()
            let novelty = try #require((json["gates"] as? [[String: Any]])?.first { $0["gate"] as? String == "novelty" })
            #expect(novelty["passed"] as? Bool == false)
            #expect((novelty["score"] as? Double ?? 0) > 0.99)
        }
    }
}
