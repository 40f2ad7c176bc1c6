import Foundation
import PluginFixtures
import QuoteLibrary
import Testing

/// `tandem quote add` and `tandem quote import`: user quotes stored whole or not at all, and
/// duplicates (copies before any embedding, near-duplicates with the fake plugin's embeddings)
/// named.
@Suite struct QuoteAddImportCLITests {
    static let line = "Repaint the rusty mailbox red and wave at every neighbour who walks past it on the way home."

    func write(_ lines: [String], in cli: QuoteCLI) throws -> String {
        let path = cli.folder + "/quotes.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func addStoresAUserQuoteWithItsVectorAndAuthor() async throws {
        let cli = try QuoteCLI(embedder: QuoteCLI.fakeEmbedder)
        defer { cli.cleanUp() }
        let outcome = try await cli.run(["quote", "add", Self.line, "--locale", "en", "--author", "Ada Lovelace", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try outcome.json()
        #expect(json["source"] as? String == "user" && json["isPublicDomain"] as? Bool == false)
        #expect(json["author"] as? String == "Ada Lovelace" && json["locale"] as? String == "en")
        let library = try cli.library()
        let models = try library.embeddingModels()
        let total = try library.count()
        #expect(models.count == 1 && models[0].model == "fake-local" && models[0].count == total,
                "every quote, curated and added, has a vector of the configured model")
        #expect(outcome.stderr.contains("embedding \(total - 1) stored quotes with fake-local"), "\(outcome.stderr)")
    }

    @Test func addRefusesACopyOfACuratedQuoteNamingIt() async throws {
        let cli = try QuoteCLI(embedder: QuoteCLI.fakeEmbedder)
        defer { cli.cleanUp() }
        let copy = try await cli.run(["quote", "add", "well done is better than WELL SAID", "--locale", "en", "--json"])
        #expect(copy.status == 1)
        #expect(copy.stderr.contains("copy of stored quote #") && copy.stderr.contains("(curated, Benjamin Franklin)"), "\(copy.stderr)")
        let error = try #require(try copy.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == "quote.novelty")
        #expect(try cli.library().count(source: .user) == 0)
    }

    @Test func addRefusesANearDuplicateOfAnAddedQuote() async throws {
        let cli = try QuoteCLI(embedder: QuoteCLI.fakeEmbedder)
        defer { cli.cleanUp() }
        #expect(try await cli.run(["quote", "add", Self.line, "--locale", "en"]).status == 0)
        let near = Self.line.replacingOccurrences(of: "rusty ", with: "")
        let outcome = try await cli.run(["quote", "add", near, "--locale", "en"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("near-duplicate of stored quote #") && outcome.stderr.contains("(user)"), "\(outcome.stderr)")
        #expect(try cli.library().count(source: .user) == 1)
    }

    @Test func addRejectsBadInputBeforeTouchingTheLibrary() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        let cases: [([String], String)] = [
            (["quote", "add", Self.line], "--locale is required"),
            (["quote", "add", "🌧️☕️🌈", "--locale", "en"], "no words"),
            (["quote", "add", Array(repeating: "word", count: 10_000).joined(separator: " "), "--locale", "en"], "10000 words"),
            (["quote", "add", Self.line, "--locale", "nl"], "\"nl\" is not supported"),
            (["quote", "add", Self.line, "--locale", "en", "--author", "  "], "author is empty"),
            (["quote", "add", "first line\nsecond line", "--locale", "en"], "line break"),
        ]
        for (arguments, message) in cases {
            let outcome = try await cli.run(arguments)
            #expect(outcome.status == 2 && outcome.stderr.contains(message), "\(arguments.prefix(3)): \(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: cli.libraryPath))
    }

    @Test(arguments: [("missing-e5.gguf", "modelNotReady"), ("corrupt-e5.gguf", "unusable model file")])
    func aMissingOrCorruptEmbeddingModelIsAConfigErrorThatSaysWhy(file: String, reason: String) async throws {
        let cli = try QuoteCLI(embedder: .init(plugin: "tandem.llama", settings: ["model": .string(file)]))
        defer { cli.cleanUp() }
        if file.hasPrefix("corrupt") {
            try Data("GGUF but not really a model file".utf8).write(to: URL(fileURLWithPath: cli.folder + "/" + file))
        }
        let outcome = try await cli.run(["quote", "add", Self.line, "--locale", "en"])
        #expect(outcome.status == 3, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("quote.embedder") && outcome.stderr.contains("no embeddings capability (")
                && outcome.stderr.contains(reason), "\(outcome.stderr)")
        #expect(try await cli.run(["quote", "check", QuoteCLI.goodDraft]).status == 3)
        #expect(!FileManager.default.fileExists(atPath: cli.libraryPath), "the embedder is resolved before the library is opened")
    }

    @Test func importStoresEveryLineInOneGo() async throws {
        let cli = try QuoteCLI(embedder: QuoteCLI.fakeEmbedder)
        defer { cli.cleanUp() }
        let path = try write([
            #"{"text": "Mend the garden fence tonight so the goat stays out of the lettuce.", "locale": "en"}"#,
            "",
            #"{"text": "Repara la valla del huerto esta noche para que la cabra no entre.", "locale": "es", "author": "Lucía"}"#,
            #"{"text": "Flick heute Abend den Gartenzaun, damit die Ziege draußen bleibt.", "locale": "de", "author": null}"#,
        ], in: cli)
        let outcome = try await cli.run(["quote", "import", path, "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try outcome.json()
        #expect(json["imported"] as? Int == 3 && (json["ids"] as? [Int])?.count == 3)
        let library = try cli.library()
        #expect(try library.count(source: .user) == 3)
        #expect(try library.list(source: .user).compactMap(\.author) == ["Lucía"])
        let total = try library.count()
        #expect(try library.embeddingModels().first?.count == total)
    }

    @Test func aBadLineNamesItsNumberAndNothingIsStored() async throws {
        let cli = try QuoteCLI(embedder: QuoteCLI.fakeEmbedder)
        defer { cli.cleanUp() }
        let path = try write([
            #"{"text": "Mend the garden fence tonight so the goat stays out of the lettuce.", "locale": "en"}"#,
            #"{"text": "Fold the map twice.", "locale": "nl"}"#,
            #"not json"#,
            #"{"text": "Fold the map twice.", "locale": "en", "mood": "calm"}"#,
            #"{"text": 7, "locale": "en"}"#,
        ], in: cli)
        let outcome = try await cli.run(["quote", "import", path])
        #expect(outcome.status == 2)
        for expected in [":2: locale \"nl\"", ":3: not valid JSON", ":4: unknown key \"mood\"", ":5: \"text\" must be a string",
                         "4 bad lines"] {
            #expect(outcome.stderr.contains(expected), "\(expected): \(outcome.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: cli.libraryPath), "validated before the library is opened")
    }

    @Test func duplicatesStopTheImportUnlessSkipped() async throws {
        let cli = try QuoteCLI(embedder: QuoteCLI.fakeEmbedder)
        defer { cli.cleanUp() }
        let path = try write([
            #"{"text": "\#(Self.line)", "locale": "en"}"#,
            #"{"text": "Well done is better than well said!", "locale": "en"}"#,
            #"{"text": "\#(Self.line.replacingOccurrences(of: "rusty ", with: ""))", "locale": "en"}"#,
            #"{"text": "Leave the kitchen window open so the smell of bread reaches the bus stop.", "locale": "en"}"#,
        ], in: cli)
        let stopped = try await cli.run(["quote", "import", path])
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains(":2: copy of stored quote #") && stopped.stderr.contains(":3: near-duplicate of line 1"),
                "\(stopped.stderr)")
        #expect(try cli.library().count(source: .user) == 0)

        let skipped = try await cli.run(["quote", "import", path, "--skip-duplicates", "--json"])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        let json = try skipped.json()
        #expect(json["imported"] as? Int == 2)
        #expect((json["skipped"] as? [[String: Any]])?.compactMap { $0["line"] as? Int } == [2, 3])
        #expect(try cli.library().count(source: .user) == 2)
    }

    @Test func checkEmbedsTheLibraryFirstAndCatchesAnEditedCuratedQuote() async throws {
        let cli = try QuoteCLI(embedder: QuoteCLI.fakeEmbedder)
        defer { cli.cleanUp() }
        let edit = "All the world's a stage, and all the men and women only players."
        let inMemory = try await cli.run(["quote", "check", edit, "--json"])
        let inMemoryNovelty = try #require((try inMemory.json()["gates"] as? [[String: Any]])?.first { $0["gate"] as? String == "novelty" })
        #expect(inMemoryNovelty["passed"] as? Bool == false, "with no library, the bundled catalog is compared: \(inMemoryNovelty)")
        #expect(!FileManager.default.fileExists(atPath: cli.libraryPath), "a check never creates the library")
        _ = try LibraryAccess.openForWriting(path: cli.libraryPath)

        let verbatim = try await cli.run(["quote", "check", "All the world's a stage, and all the men and women merely players.", "--json"])
        #expect(verbatim.status == 1)
        let gates = try #require(try verbatim.json()["gates"] as? [[String: Any]])
        let novelty = try #require(gates.first { $0["gate"] as? String == "novelty" })
        #expect(novelty["passed"] as? Bool == false && (novelty["reason"] as? String)?.contains("William Shakespeare") == true)
        let library = try cli.library()
        #expect(try library.embeddingModels().isEmpty, "a copy is rejected before anything is embedded")
        let edited = try await cli.run(["quote", "check", edit, "--json"])
        let editedNovelty = try #require((try edited.json()["gates"] as? [[String: Any]])?.first { $0["gate"] as? String == "novelty" })
        #expect(editedNovelty["passed"] as? Bool == false, "\(editedNovelty)")
        let total = try library.count()
        #expect(try library.embeddingModels().first?.count == total, "the whole library was embedded")
    }
}
