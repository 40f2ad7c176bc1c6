import Foundation
import PluginFixtures
import Testing

/// `tandem chat` run as a process with `tandem.fake` on both sides: turns piped in line by line.
/// The fake counts the words of every message it receives (`usage.promptTokens`), which shows
/// what history each turn carried. Serialized: each test blocks a thread of Swift's small
/// cooperative pool while its process runs, and timed tests elsewhere need the others.
@Suite(.serialized) struct ChatCLITests {
    func withCLI(_ config: String = CLIRunner.config(), _ body: (CLIRunner) throws -> Void) throws {
        let cli = try CLIRunner(config: config)
        defer { cli.cleanUp() }
        try body(cli)
    }

    /// stdout as one JSON object per line.
    func turns(_ outcome: CLIRunner.Outcome) throws -> [[String: Any]] {
        try outcome.stdout.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try #require(object as? [String: Any], "not an object: \(line)")
        }
    }

    func promptTokens(_ turn: [String: Any]) -> Int? { (turn["usage"] as? [String: Any])?["promptTokens"] as? Int }

    @Test func twoPipedTurnsStreamTheirAnswersWithWhoServedOnStderr() throws {
        try withCLI { cli in
            let outcome = try cli.run(["chat"], stdin: "Hi there\nAnd then?\n")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout == "Hi there\nAnd then?\n")
            let served = outcome.stderr.components(separatedBy: "served by local, model local-v1").count - 1
            #expect(served == 2, "\(outcome.stderr)")
            // No prompt marker: stdin is a pipe.
            #expect(!outcome.stderr.contains(">"), "\(outcome.stderr)")
        }
    }

    @Test func everyTurnCarriesTheConversationSoFar() throws {
        try withCLI { cli in
            let outcome = try cli.run(["chat", "--json"], stdin: "Hi there\nAnd then?\n")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let turns = try turns(outcome)
            try #require(turns.count == 2)
            #expect(turns.map { $0["text"] as? String } == ["Hi there", "And then?"])
            #expect(turns.allSatisfy { $0["servedBy"] as? String == "local" && $0["modelVersion"] as? String == "local-v1" })
            #expect(turns.allSatisfy { $0["finishReason"] as? String == "stop" && $0["fallback"] is [String: Any] })
            // Turn two received turn one's prompt (2 words) and answer (2) before its own (2).
            #expect(turns.map(promptTokens) == [2, 2 + 2 + 2])
        }
    }

    @Test func eachTurnIsRoutedAfreshAndTheSecondaryGetsTheWholeConversation() throws {
        // The local model holds 10 tokens: the third turn's conversation (10) no longer fits.
        try withCLI(CLIRunner.config(local: ["context_length": "10"])) { cli in
            let outcome = try cli.run(["chat", "--json"], stdin: "a b\nc d\ne f\n")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let turns = try turns(outcome)
            #expect(turns.map { $0["servedBy"] as? String } == ["local", "local", "cloud"])
            #expect(turns.map(promptTokens) == [2, 2 + 2 + 2, 2 + 2 + 2 + 2 + 2])
            let fallback = try #require(turns.last?["fallback"] as? [String: Any])
            #expect(fallback["reason"] as? String == "unsupportedRequest" && fallback["primaryTried"] as? Bool == false)

            let plain = try cli.run(["chat"], stdin: "a b\nc d\ne f\n")
            #expect(plain.stderr.contains("served by cloud, model cloud-v1; fallback from local (not tried: "), "\(plain.stderr)")
        }
    }

    @Test func resetForgetsTheConversationButKeepsTheSystemInstructions() throws {
        try withCLI { cli in
            let outcome = try cli.run(["chat", "--json", "--system", "be brief"], stdin: "a b\nc d\n/reset\ne f\n")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let turns = try turns(outcome)
            #expect(turns.map { $0["text"] as? String } == ["a b", "c d", "e f"])
            // Instructions (2 words) always; turn two also carries turn one (2 + 2); after /reset only the instructions.
            #expect(turns.map(promptTokens) == [2 + 2, 2 + 2 + 2 + 2, 2 + 2])
            #expect(outcome.stderr.contains("conversation forgotten"))
        }
    }

    @Test func quitAndEndOfInputExitZero() throws {
        try withCLI { cli in
            let quit = try cli.run(["chat"], stdin: "first\n/quit\nnever answered\n")
            #expect(quit.status == 0)
            #expect(quit.stdout == "first\n")
            let empty = try cli.run(["chat"], stdin: "")
            #expect(empty.status == 0 && empty.stdout.isEmpty)
            // Blank lines are no turns; an unknown command is reported and the chat goes on;
            // the last line needs no newline.
            let mixed = try cli.run(["chat"], stdin: "\n   \n/frobnicate\nstill here")
            #expect(mixed.status == 0)
            #expect(mixed.stdout == "still here\n")
            #expect(mixed.stderr.contains("unknown chat command /frobnicate (/reset forgets the conversation"), "\(mixed.stderr)")
        }
    }

    @Test func aFailedTurnIsReportedAndLeavesNoTraceInTheConversation() throws {
        try withCLI(CLIRunner.config(local: ["context_length": "8"])) { cli in
            let input = "a b\none two three four five six seven\nc\n"
            let outcome = try cli.run(["chat", "--json", "--mode", "local-only"], stdin: input)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let turns = try turns(outcome)
            try #require(turns.count == 3)
            #expect(turns[0]["text"] as? String == "a b")
            let error = try #require(turns[1]["error"] as? [String: Any])
            #expect(error["code"] as? String == "unsupportedRequest")
            #expect((error["message"] as? String)?.contains("context length: 11 prompt tokens, the model holds 8") == true, "\(error)")
            #expect(turns[2]["text"] as? String == "c")
            // The failed turn is not in the history: "a b" twice and "c", not the seven words.
            #expect(promptTokens(turns[2]) == 2 + 2 + 1)
            #expect(outcome.stderr.contains("error: local: unsupported request (context length: 11 prompt tokens"), "\(outcome.stderr)")

            let plain = try cli.run(["chat", "--mode", "local-only"], stdin: input)
            #expect(plain.stdout == "a b\nc\n")
        }
        // A backend that fails on every turn: each turn reported, the chat still ends normally.
        try withCLI(CLIRunner.config(cloud: ["fail_at_token": "0", "error": "serverError"])) { cli in
            let outcome = try cli.run(["chat", "--mode", "cloud-only"], stdin: "x\ny\n")
            #expect(outcome.status == 0)
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr.components(separatedBy: "tandem: error:").count - 1 == 2, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("serverError"), "\(outcome.stderr)")
        }
    }

    @Test func interruptCancelsTheAnswerAndTheChatGoesOn() throws {
        // Twenty pieces 300 ms apart: the first answer is still under way when Ctrl-C comes.
        try withCLI(CLIRunner.config(local: ["token_delay_ms": "300"])) { cli in
            let chat = try RunningChat(cli, ["chat", "--mode", "local-only"])
            chat.send("one two three four five six seven eight nine ten eleven twelve 13 14 15 16 17 18 19 twenty\n")
            try chat.waitFor(stdout: "one")
            chat.interrupt()
            try chat.waitFor(stderr: "cancelled")
            chat.send("short answer\n")
            let outcome = chat.finish()
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(!outcome.stdout.contains("twenty"), "the first answer was cut short: \(outcome.stdout)")
            #expect(outcome.stdout.hasSuffix("\nshort answer\n"), "\(outcome.stdout)")
            #expect(outcome.stderr.contains("served by local, model local-v1"))
        }
    }

    @Test func timeoutFailsOneTurnOnly() throws {
        try withCLI(CLIRunner.config(local: ["token_delay_ms": "600"])) { cli in
            let outcome = try cli.run(["chat", "--json", "--mode", "local-only", "--timeout", "2"], stdin: "a b c d e f g h\nquick\n")
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let turns = try turns(outcome)
            try #require(turns.count == 2)
            #expect((turns[0]["error"] as? [String: Any])?["code"] as? String == "timeout")
            #expect(turns[1]["text"] as? String == "quick")
            #expect(promptTokens(turns[1]) == 1)
        }
    }

    @Test func helpAndUsageErrors() throws {
        try withCLI { cli in
            let help = try cli.run(["chat", "--help"], useConfig: false)
            #expect(help.status == 0)
            for text in ["Usage: tandem chat", "--mode MODE", "--primary ID", "--system TEXT", "--temperature T", "--max-tokens N",
                         "--timeout SECONDS", "--json", "/reset", "/quit", "Ctrl-C", "Exit codes:"] {
                #expect(help.stdout.contains(text), "\(text)")
            }
            #expect(try cli.run(["--help"], useConfig: false).stdout.contains("  chat "))
            for (arguments, message) in [
                (["chat", "extra"], "'chat' takes no arguments"),
                (["chat", "--temperature", "warm"], "--temperature: expected a number, got \"warm\""),
                (["chat", "--mode", "sideways"], "unknown mode \"sideways\""),
                (["chat", "--primary", "lokal"], "--primary: unknown backend id \"lokal\""),
            ] {
                let outcome = try cli.run(arguments, stdin: "never read\n")
                #expect(outcome.status == 2, "\(arguments)")
                #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
                #expect(outcome.stdout.isEmpty)
            }
        }
    }
}

/// A `tandem chat` process fed line by line, for what needs timing (Ctrl-C during an answer).
final class RunningChat {
    private let process: TestProcess

    init(_ cli: CLIRunner, _ arguments: [String]) throws {
        process = try TestProcess(CLIRunner.binary, ["--config", cli.configPath] + arguments, input: .interactive)
    }

    func send(_ text: String) { process.send(text) }

    func interrupt() { process.signal(SIGINT) }

    func waitFor(stdout text: String) throws { try process.waitFor(stdout: text) }
    func waitFor(stderr text: String) throws { try process.waitFor(stderr: text) }

    /// Ends the input and waits for the exit.
    func finish() -> CLIRunner.Outcome { process.wait() }
}
