import Foundation
import Testing

/// `tandem respond --tools`, the thinking options, `tandem embed` and `tandem backends` on a
/// config without routing, through the built binary with the fake plugin on both sides.
@Suite struct CLIToolsThinkingEmbedTests {
    func withCLI(_ config: String = CLIRunner.config(), _ body: (CLIRunner) throws -> Void) throws {
        let cli = try CLIRunner(config: config)
        defer { cli.cleanUp() }
        try body(cli)
    }

    static let weatherTools = """
        [{"name": "get_weather", "description": "The weather in a city",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
         {"type": "function", "function": {"name": "get_time"}}]
        """
    /// The fake's scripted calls (`tool_calls` setting), a JSON text the config builder encodes
    /// as a string.
    static let scriptedCalls = #"[{"name": "get_weather", "arguments": {"city": "Bern"}, "id": "call-7"}]"#

    func writeTools(_ cli: CLIRunner, _ text: String, name: String = "tools.json") throws -> String {
        let path = cli.folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func toolCallsArePrintedNotRun() throws {
        try withCLI(CLIRunner.config(local: ["tool_calls": Self.scriptedCalls])) { cli in
            let tools = try writeTools(cli, Self.weatherTools)
            let json = try cli.run(["respond", "Weather in Bern?", "--tools", tools, "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            let object = try json.json()
            #expect(object["finishReason"] as? String == "toolCalls")
            #expect(object["servedBy"] as? String == "local")
            #expect(object["text"] as? String == "")
            let calls = try #require(object["toolCalls"] as? [[String: Any]])
            #expect(calls.count == 1)
            #expect(calls.first?["id"] as? String == "call-7")
            #expect(calls.first?["name"] as? String == "get_weather")
            let arguments = try #require((calls.first?["arguments"] as? String).map { Data($0.utf8) })
            #expect(try JSONSerialization.jsonObject(with: arguments) as? [String: String] == ["city": "Bern"])

            let plain = try cli.run(["respond", "Weather in Bern?", "--tools", tools])
            #expect(plain.status == 0, "\(plain.stderr)")
            #expect(plain.stdout == #"get_weather {"city":"Bern"}"# + "\n")
            #expect(plain.stderr.contains("served by local"), "\(plain.stderr)")
        }
        // Without tools the same model answers in words, and the JSON says there were no calls.
        try withCLI(CLIRunner.config(local: ["tool_calls": Self.scriptedCalls, "reply": "No tools here."])) { cli in
            let object = try cli.run(["respond", "Weather?", "--json"]).json()
            #expect(object["text"] as? String == "No tools here.")
            #expect((object["toolCalls"] as? [Any])?.isEmpty == true)
        }
    }

    /// A side without the tools capability is passed over, as for any request with tools.
    @Test func toolsRouteToASideThatHasThem() throws {
        try withCLI(CLIRunner.config(local: ["without": "tools"], cloud: ["tool_calls": Self.scriptedCalls])) { cli in
            let tools = try writeTools(cli, Self.weatherTools)
            let object = try cli.run(["respond", "Weather?", "--tools", tools, "--json"]).json()
            #expect(object["servedBy"] as? String == "cloud")
            #expect((object["fallback"] as? [String: Any])?["reason"] as? String == "unsupportedRequest")
            #expect((object["toolCalls"] as? [[String: Any]])?.first?["name"] as? String == "get_weather")
        }
    }

    @Test(arguments: [
        ("{", "tools.json: not JSON"),
        (#"{"name": "x"}"#, "tools.json: expected a JSON array of tools"),
        ("[]", "tools.json: the array declares no tool"),
        ("[3]", "tools.json: tools[0]: expected an object, found a number"),
        (#"[{"description": "no name"}]"#, "tools.json: tools[0].name: missing"),
        (#"[{"name": 5}]"#, "tools.json: tools[0].name: expected a string, found a number"),
        (#"[{"name": "get weather"}]"#, #"tools.json: tools[0].name: "get weather" is not 1 to 64 of the characters"#),
        (#"[{"name": "a"}, {"name": "b", "params": {}}]"#, #"tools.json: tools[1]: unknown key "params""#),
        (#"[{"name": "a"}, {"name": "a"}]"#, #"tools.json: tools[1]: the name "a" is already used by tools[0]"#),
        (#"[{"name": "a", "description": 1}]"#, "tools.json: tools[0].description: expected a string"),
        (#"[{"name": "a", "parameters": {"type": "string"}}]"#, "tools.json: tools[0].parameters: expected the JSON Schema of an object"),
        (#"[{"name": "a", "parameters": {"type": "object", "properties": {"p": {"type": "string", "format": "email"}}}}]"#,
         #"tools.json: tools[0].parameters (tool "a"): "#),
        (#"[{"type": "function", "name": "a"}]"#, #"tools.json: tools[0]: an entry with "type" must be"#),
        (#"[{"type": "function", "function": {"name": "a", "strict": true}}]"#, #"tools.json: tools[0].function: unknown key "strict""#),
    ])
    func badToolsFilesNameTheFileAndTheEntry(text: String, message: String) throws {
        try withCLI { cli in
            let tools = try writeTools(cli, text)
            let outcome = try cli.run(["respond", "x", "--tools", tools])
            #expect(outcome.status == 2, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("--tools \(cli.folder)/\(message)"), "\(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
        }
    }

    @Test func toolsFileProblemsBeyondItsEntries() throws {
        try withCLI { cli in
            let missing = try cli.run(["respond", "x", "--tools", cli.folder + "/absent.json"])
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("--tools \(cli.folder)/absent.json: cannot read the file"), "\(missing.stderr)")
            let tools = try writeTools(cli, Self.weatherTools)
            for extra in [["--stream"], ["--schema", tools]] {
                let combined = try cli.run(["respond", "x", "--tools", tools] + extra)
                #expect(combined.status == 2)
                #expect(combined.stderr.contains("--tools cannot be combined with --schema or --stream"), "\(combined.stderr)")
            }
        }
    }

    @Test(arguments: [
        (["respond", "x", "--thinking-level", "deep"], #"--thinking-level: unknown level "deep" (expected one of: minimal, low, medium, high)"#),
        (["respond", "x", "--thinking-budget", "lots"], #"--thinking-budget: expected an integer, got "lots""#),
        (["respond", "x", "--thinking-budget", "-2"], "cloud options: thinking budget must be >= -1, got -2"),
        (["respond", "x", "--thinking-level", "low", "--thinking-budget", "5"], "--thinking-level and --thinking-budget cannot be combined"),
        (["chat", "--thinking-level", "max"], #"--thinking-level: unknown level "max""#),
    ])
    func badThinkingOptionsAreUsageErrors(arguments: [String], message: String) throws {
        try withCLI { cli in
            let outcome = try cli.run(arguments, stdin: "hello\n")
            #expect(outcome.status == 2, "\(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        }
    }

    /// Thinking is a cloud option: a cloud side without the capability is passed over for the
    /// local side (which receives no thinking option), and cloud-only cannot serve it.
    @Test func thinkingNeedsASideThatThinks() throws {
        try withCLI(CLIRunner.config(mode: "prefer-cloud")) { cli in
            let object = try cli.run(["respond", "hello", "--thinking-level", "high", "--json"]).json()
            #expect(object["servedBy"] as? String == "local")
            #expect((object["fallback"] as? [String: Any])?["detail"] as? String == "unsupported request (thinking)")
            let only = try cli.run(["respond", "hello", "--mode", "cloud-only", "--thinking-budget", "64", "--json"])
            #expect(only.status == 4, "\(only.stderr)")
            #expect(only.stderr.contains("unsupported request (thinking)"), "\(only.stderr)")
            // chat passes them on every turn.
            let chat = try cli.run(["chat", "--thinking-level", "low", "--json"], stdin: "hello\nagain\n")
            #expect(chat.status == 0, "\(chat.stderr)")
            let turns = try chat.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(turns.count == 2)
            #expect(turns.allSatisfy { ($0["fallback"] as? [String: Any])?["detail"] as? String == "unsupported request (thinking)" })
        }
    }

    @Test func embedPrintsOneVectorPerText() throws {
        try withCLI(CLIRunner.config(local: ["embedding_dims": "0"], cloud: ["embedding_dims": "8"])) { cli in
            let json = try cli.run(["embed", "hello world", "hello there", "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            let object = try json.json()
            #expect(object["backend"] as? String == "cloud", "the only backend that embeds")
            #expect(object["dimensions"] as? Int == 8)
            let vectors = try #require(object["vectors"] as? [[Double]])
            #expect(vectors.count == 2 && vectors.allSatisfy { $0.count == 8 })
            #expect(vectors.allSatisfy { abs($0.reduce(0) { $0 + $1 * $1 } - 1) < 1e-5 }, "L2-normalised")

            let plain = try cli.run(["embed", "hello world", "--backend", "cloud"])
            #expect(plain.status == 0, "\(plain.stderr)")
            let numbers = plain.stdout.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
            #expect(numbers.count == 1 && numbers[0].count == 8)
            #expect(zip(numbers[0], vectors[0]).allSatisfy { abs($0 - $1) < 1e-5 }, "the same vector as with --json")

            let none = try cli.run(["embed", "x", "--backend", "local"])
            #expect(none.status == 3)
            #expect(none.stderr.contains(#"--backend: backend "local" (model fake-local) has no embeddings capability"#), "\(none.stderr)")
            let unknown = try cli.run(["embed", "x", "--backend", "nope"])
            #expect(unknown.status == 3)
            #expect(unknown.stderr.contains(#"unknown backend id "nope""#), "\(unknown.stderr)")
            let empty = try cli.run(["embed"])
            #expect(empty.status == 2)
            #expect(empty.stderr.contains("no text given"))
        }
    }

    /// Listing needs no routing: without `mode` or `primary` the plugins and backends are listed
    /// and the routing line says what is missing; routing commands fail naming `mode`.
    @Test func backendsWorksWithoutARoutingMode() throws {
        let config = CLIRunner.config().replacingOccurrences(of: #""mode":"prefer-local","#, with: "")
        #expect(!config.contains("\"mode\""))
        try withCLI(config) { cli in
            let text = try cli.run(["backends"])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("tandem.fake"))
            #expect(text.stdout.contains("local: tandem.fake model fake-local"))
            #expect(text.stdout.contains("cloud: tandem.fake model fake-cloud"))
            #expect(text.stdout.contains("routing: not possible: \(cli.configPath): mode: missing (expected mode, or primary with an optional secondary)"), "\(text.stdout)")
            let json = try cli.run(["backends", "--json"]).json()
            #expect((json["backends"] as? [[String: Any]])?.count == 2)
            #expect(((json["routing"] as? [String: String])?["error"])?.contains("mode: missing") == true)
            #expect(try cli.run(["availability"]).stdout == "cloud: available\nlocal: available\n")

            let respond = try cli.run(["respond", "x"])
            #expect(respond.status == 3)
            #expect(respond.stderr.contains("\(cli.configPath): mode: missing"), "\(respond.stderr)")
            let override = try cli.run(["respond", "hello", "--mode", "local-only"])
            #expect(override.status == 0, "\(override.stderr)")
            #expect(override.stdout == "hello\n")
        }
    }
}
