import Foundation
import Testing

/// The `tandem` command line, run as a process: output shapes, exit codes, bad input.
@Suite struct CLITests {
    func withCLI(_ config: String = CLIRunner.config(), _ body: (CLIRunner) throws -> Void) throws {
        let cli = try CLIRunner(config: config)
        defer { cli.cleanUp() }
        try body(cli)
    }

    @Test func helpEverywhereWithExitCodes() throws {
        try withCLI { cli in
            let top = try cli.run(["--help"], useConfig: false)
            #expect(top.status == 0)
            for word in ["backends", "availability", "respond", "Exit codes:", "TANDEM_CONFIG", "  4  no model may serve"] {
                #expect(top.stdout.contains(word), "\(word)")
            }
            for command in ["backends", "availability", "respond"] {
                let help = try cli.run([command, "--help"], useConfig: false)
                #expect(help.status == 0)
                #expect(help.stdout.contains("Usage: tandem \(command)"))
                #expect(help.stdout.contains("--config PATH"))
                #expect(help.stdout.contains("Exit codes:"))
            }
            let respond = try cli.run(["respond", "--help"], useConfig: false).stdout
            for option in ["--mode MODE", "--primary ID", "--secondary ID", "--temperature T", "--top-p P", "--top-k K", "--seed N",
                           "--max-tokens N", "--system TEXT", "--stream", "--json"] {
                #expect(respond.contains(option), "\(option)")
            }
            let version = try cli.run(["--version"], useConfig: false)
            #expect(version.status == 0 && version.stdout.hasPrefix("tandem "))
        }
    }

    @Test func respondJSONHasTheContractFields() throws {
        try withCLI { cli in
            let outcome = try cli.run(["respond", "hello over there", "--json"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let json = try outcome.json()
            #expect(json["text"] as? String == "hello over there")
            #expect(json["modelVersion"] as? String == "local-v1")
            #expect(json["servedBy"] as? String == "local")
            let fallback = try #require(json["fallback"] as? [String: Any])
            #expect(fallback["primaryTried"] as? Bool == true)
            #expect(fallback["reason"] is NSNull)
            let usage = try #require(json["usage"] as? [String: Any])
            #expect(usage["promptTokens"] as? Int == 3)
            #expect(usage["outputTokens"] as? Int == 3)
        }
    }

    @Test func plainOutputIsTheTextWithWhoServedOnStderr() throws {
        try withCLI(CLIRunner.config(local: ["availability": "modelNotReady"])) { cli in
            let outcome = try cli.run(["respond", "plain words"])
            #expect(outcome.status == 0)
            #expect(outcome.stdout == "plain words\n")
            #expect(outcome.stderr.contains("served by cloud, model cloud-v1"))
            #expect(outcome.stderr.contains("fallback from local (not tried: unavailable (modelNotReady"))
            let piped = try cli.run(["respond"], stdin: "from stdin\n")
            #expect(piped.stdout == "from stdin\n")
        }
    }

    @Test func streamPrintsPiecesThenTheResponse() throws {
        try withCLI { cli in
            let plain = try cli.run(["respond", "a b c", "--stream"])
            #expect(plain.status == 0 && plain.stdout == "a b c\n")
            let lines = try cli.run(["respond", "a b c", "--stream", "--json"]).stdout.split(separator: "\n")
            #expect(lines.prefix(3) == [#"{"delta":"a"}"#, #"{"delta":" b"}"#, #"{"delta":" c"}"#])
            #expect(lines.count == 4 && lines[3].contains(#""servedBy":"local""#))
        }
    }

    @Test func fallbackAndOverridesFromTheCommandLine() throws {
        try withCLI(CLIRunner.config(local: ["fail_at_token": "0", "error": "offline"])) { cli in
            let fellBack = try cli.run(["respond", "x", "--json"]).json()
            #expect(fellBack["servedBy"] as? String == "cloud")
            let fallback = try #require(fellBack["fallback"] as? [String: Any])
            #expect(fallback["primaryTried"] as? Bool == true && fallback["reason"] as? String == "offline")

            let cloudFirst = try cli.run(["respond", "x", "--json", "--mode", "prefer-cloud"]).json()
            #expect(cloudFirst["servedBy"] as? String == "cloud")
            let explicit = try cli.run(["respond", "x", "--json", "--primary", "cloud", "--secondary", "local"]).json()
            #expect(explicit["servedBy"] as? String == "cloud")
        }
    }

    @Test func unavailableExitCodeNamesBothReasons() throws {
        try withCLI(CLIRunner.config(local: ["availability": "modelNotReady"], cloud: ["availability": "offline"])) { cli in
            let outcome = try cli.run(["respond", "x", "--json"])
            #expect(outcome.status == 4)
            let error = try #require(try outcome.json()["error"] as? [String: Any])
            #expect(error["code"] as? String == "unavailable")
            #expect((error["primary"] as? [String: Any])?["reason"] as? String == "modelNotReady")
            #expect((error["secondary"] as? [String: Any])?["reason"] as? String == "offline")
            #expect(outcome.stderr.contains("modelNotReady") && outcome.stderr.contains("offline"))
            let single = try cli.run(["respond", "x", "--mode", "local-only"])
            #expect(single.status == 4 && single.stderr.contains("modelNotReady"))
        }
    }

    @Test func backendErrorAndCancellationExitCodes() throws {
        try withCLI(CLIRunner.config(local: ["hang": "true"], cloud: ["fail_at_token": "0", "error": "serverError"])) { cli in
            let failed = try cli.run(["respond", "x", "--mode", "cloud-only", "--json"])
            #expect(failed.status == 6)
            #expect((try failed.json()["error"] as? [String: Any])?["status"] as? String == "serverError")
            let interrupted = try cli.run(["respond", "x", "--mode", "local-only"], interruptAfter: .milliseconds(500))
            #expect(interrupted.status == 5, "\(interrupted.stderr)")
            #expect(interrupted.stderr.contains("cancelled"))
            let timedOut = try cli.run(["respond", "x", "--mode", "local-only", "--timeout", "0.2", "--json"])
            #expect(timedOut.status == 5)
            #expect((try timedOut.json()["error"] as? [String: Any])?["code"] as? String == "timeout")
        }
    }

    @Test(arguments: [
        (["respond", "x", "--temprature", "1"], "unknown option --temprature"),
        (["respond", "x", "--temperature"], "--temperature needs a value"),
        (["respond", "x", "--temperature", "warm"], "--temperature: expected a number, got \"warm\""),
        (["respond", "x", "--temperature", "-1"], "local options: temperature must be >= 0"),
        (["respond", "x", "--top-p", "1.5"], "top-p must be in (0, 1]"),
        (["respond", "x", "--max-tokens", "0"], "max tokens must be >= 1"),
        (["respond", "x", "--seed", "3"], "--seed needs --top-k or --top-p"),
        (["respond", "x", "--top-k", "3", "--top-p", "0.5"], "cannot be combined"),
        (["respond", "x", "--mode", "sideways"], "unknown mode \"sideways\""),
        (["respond", "x", "--mode", "local-only", "--primary", "local"], "--mode cannot be combined"),
        (["respond", "x", "--secondary", "local"], "--secondary needs --primary"),
        (["respond", "x", "--primary", "lokal"], "--primary: unknown backend id \"lokal\" (configured: cloud, local)"),
        (["respond", "x", "--primary", "local", "--secondary", "cluod"], "--secondary: unknown backend id \"cluod\""),
        (["respond", "x", "y"], "unexpected argument \"y\""),
        (["respond", "   "], "the prompt is empty"),
        (["respond", "x", "--stream=yes"], "--stream takes no value"),
        (["respond", "x", "--timeout", "0"], "--timeout: expected a positive number"),
        (["frobnicate"], "unknown command 'frobnicate'"),
        ([], "no command given"),
        (["backends", "extra"], "'backends' takes no arguments"),
    ])
    func usageErrorsExitTwoAndSayWhat(arguments: [String], message: String) throws {
        try withCLI { cli in
            let outcome = try cli.run(arguments)
            #expect(outcome.status == 2, "\(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
        }
    }

    @Test func configErrorsExitThreeWithFileAndKeyPath() throws {
        try withCLI(#"{"plugins_dir": "p", "backends": {"a": {"plugin": 5}}, "mode": "prefer-local"}"#) { cli in
            let outcome = try cli.run(["respond", "x"])
            #expect(outcome.status == 3)
            #expect(outcome.stderr.contains("\(cli.configPath): backends.a.plugin: expected a string, found a number"))
        }
        try withCLI(CLIRunner.config().replacingOccurrences(of: #""plugin":"tandem.fake","settings":{"kind":"local""#,
                                                            with: #""plugin":"tandem.nope","settings":{"kind":"local""#)) { cli in
            let outcome = try cli.run(["respond", "x", "--mode", "local-only"])
            #expect(outcome.status == 3)
            #expect(outcome.stderr.contains("backends.local.plugin: no plugin \"tandem.nope\""), "\(outcome.stderr)")
        }
        try withCLI(CLIRunner.config(local: ["colour": "red"])) { cli in
            let outcome = try cli.run(["respond", "x"])
            #expect(outcome.status == 3)
            #expect(outcome.stderr.contains("backends.local.settings"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("colour"), "\(outcome.stderr)")
        }
        try withCLI { cli in
            let missing = try cli.run(["--config", cli.folder + "/absent.json", "backends"], useConfig: false)
            #expect(missing.status == 3 && missing.stderr.contains("absent.json: no such file"))
        }
    }

    @Test func backendsAndAvailabilityReport() throws {
        try withCLI(CLIRunner.config(local: ["locales": "en"])) { cli in
            let backends = try cli.run(["backends", "--json"])
            #expect(backends.status == 0)
            let json = try backends.json()
            let plugins = try #require(json["plugins"] as? [[String: Any]])
            #expect(plugins.contains { $0["id"] as? String == "tandem.fake" && $0["abi"] as? String == "1.0" })
            let list = try #require(json["backends"] as? [[String: Any]])
            #expect(list.map { $0["id"] as? String } == ["cloud", "local"])
            #expect(list.allSatisfy { ($0["capabilities"] as? [String])?.contains("streaming") == true })
            #expect((json["routing"] as? [String: String]) == ["primary": "local", "secondary": "cloud"])
            let text = try cli.run(["backends"]).stdout
            #expect(text.contains("local: tandem.fake model"))
            #expect(text.hasSuffix("routing: primary local, secondary cloud\n"))

            let german = try cli.run(["availability", "--locale", "de", "--json"]).json()
            let entries = try #require(german["backends"] as? [String: [String: Any]])
            #expect(entries["local"]?["reason"] as? String == "unsupportedLocale")
            #expect(entries["cloud"]?["available"] as? Bool == true)
            #expect(try cli.run(["availability"]).stdout == "cloud: available\nlocal: available\n")
        }
    }

    @Test func backendsListsRejectedFilesWithTheirReason() throws {
        let folder = try CLIRunner(config: "{}")
        defer { folder.cleanUp() }
        let plugins = folder.folder + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: false)
        chmod(plugins, 0o755)
        #expect(FileManager.default.createFile(atPath: plugins + "/junk.so", contents: Data("not a library".utf8)))
        try FileManager.default.copyItem(atPath: ModelFactory.pluginsDirectory + "/tandem.fake.so", toPath: plugins + "/tandem.fake.so")
        try withCLI(CLIRunner.config(pluginsDirectory: plugins)) { cli in
            let outcome = try cli.run(["backends"])
            #expect(outcome.status == 0)
            #expect(outcome.stdout.contains("1 loaded, 1 rejected"))
            #expect(outcome.stdout.contains("rejected \(plugins)/junk.so: notELF"), "\(outcome.stdout)")
            // The host keeps working with what loaded.
            #expect(try cli.run(["respond", "still fine"]).stdout == "still fine\n")
        }
    }
}
