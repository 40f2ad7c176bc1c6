import Foundation
import Testing

/// `tandem quote today` reads stored rows only: it works with an empty plugins folder and never
/// opens a plugin, even when the folder holds one. (Its speed is measured by
/// `tandem-bench-quote-today` in `make bench`, not here.)
@Suite struct QuoteTodayCLITests {
    @Test func answersWithAnEmptyPluginsFolder() async throws {
        let cli = try QuoteCLI(pluginsDirectory: nil)
        defer { cli.cleanUp() }
        let outcome = try await cli.run(["quote", "today", "--day", "2026-03-01", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try outcome.json()
        #expect(json["source"] as? String == "curated")
        #expect((json["text"] as? String)?.isEmpty == false)
        // Stable for a day, in the requested language.
        let again = try await cli.run(["quote", "today", "--day", "2026-03-01", "--json"]).json()
        #expect(again["id"] as? Int == json["id"] as? Int && again["text"] as? String == json["text"] as? String)
        let german = try await cli.run(["quote", "today", "--locale", "de", "--json"]).json()
        #expect(german["locale"] as? String == "de")
        // The same config cannot generate: there is no plugin to load.
        let generate = try await cli.run(["quote", "generate"])
        #expect(generate.status == 3 && generate.stderr.contains("no plugin \"tandem.fake\""))
    }

    @Test func neverOpensAPluginEvenWhenOneIsInstalled() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        #expect(try await cli.run(["quote", "generate"]).status == 0)  // a writer sets the library up
        // The dynamic loader reports every object it opens; a plugin opened would be listed.
        let traced = try await cli.run(["quote", "today"], environment: ["LD_DEBUG": "files"])
        #expect(traced.status == 0)
        #expect(traced.stderr.contains("file=libsqlite3"), "the trace works: \(traced.stderr.prefix(300))")
        #expect(!traced.stderr.contains("tandem.fake.so"))
        // The trace does see the plugin when a command loads it.
        let loading = try await cli.run(["availability"], environment: ["LD_DEBUG": "files"])
        #expect(loading.stderr.contains("tandem.fake.so"))
    }

    @Test func aMissingLibraryIsServedFromTheCatalogWithoutCreatingTheFile() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        let outcome = try await cli.run(["quote", "today", "--day", "2026-03-01", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(try outcome.json()["source"] as? String == "curated")
        let german = try await cli.run(["quote", "today", "--locale", "de", "--json"]).json()
        #expect(german["locale"] as? String == "de")
        for suffix in ["", "-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: cli.libraryPath + suffix), "quote today created lib.sqlite\(suffix)")
        }
        // Once a writer has set the library up, the day keeps its quote.
        #expect(try await cli.run(["quote", "save", "1"]).status == 0)
        let stored = try await cli.run(["quote", "today", "--day", "2026-03-01", "--json"]).json()
        let served = try outcome.json()
        #expect(stored["id"] as? Int == served["id"] as? Int && stored["text"] as? String == served["text"] as? String)
    }

    @Test func anExistingLibrarysBytesAndModificationTimeDoNotChange() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        #expect(try await cli.run(["quote", "generate"]).status == 0)
        let before = try #require(FileManager.default.contents(atPath: cli.libraryPath))
        let modified = try FileManager.default.attributesOfItem(atPath: cli.libraryPath)[.modificationDate] as? Date
        let streak = try cli.library().streak(asOf: .init(Date()))
        #expect(try await cli.run(["quote", "today"]).status == 0)
        #expect(FileManager.default.contents(atPath: cli.libraryPath) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: cli.libraryPath)[.modificationDate] as? Date == modified)
        #expect(try cli.library().streak(asOf: .init(Date())) == streak)
    }

    @Test func aMissingStoreKeyNamesTheConfigKey() async throws {
        let cli = try QuoteCLI()
        defer { cli.cleanUp() }
        let config = try String(contentsOfFile: cli.configPath, encoding: .utf8).replacingOccurrences(of: #","store":"lib.sqlite""#, with: "")
        try config.write(toFile: cli.configPath, atomically: true, encoding: .utf8)
        let outcome = try await cli.run(["quote", "today"])
        #expect(outcome.status == 3)
        #expect(outcome.stderr.contains("store") && outcome.stderr.contains("the quote library needs a database path"))
    }
}
