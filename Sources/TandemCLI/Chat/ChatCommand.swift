import Foundation
import JSONModel
import Tandem

/// `tandem chat`: a conversation on one session. Each line on stdin is a user turn; its answer
/// streams to stdout, who served it goes to stderr, and the transcript carries over turns.
enum ChatCommand: Command {
    static let name = "chat"
    static let summary = "a conversation: one turn per line on stdin, each answer streamed, the history kept"
    static let arguments = "[options]   (turns from stdin, one per line)"
    static let options: [OptionSpec] = GenerationArguments.options + [
        .flag("json", "print one JSON object per turn {text, modelVersion, servedBy, finishReason, fallback, usage}, or {\"error\"} for a failed turn"),
    ]
    static let discussion = """
        Each line is one user turn on one session: the serving backend receives the whole
        conversation so far, and every turn is routed afresh (a fallback keeps the history). The
        answer streams to stdout as it is generated, then a line naming the serving backend, its
        model version and any fallback goes to stderr. With --json, stdout holds one line per turn
        instead: respond's JSON object, or {"error": {...}} for a failed turn.

        A line that is one word starting with / is a command: /reset forgets the conversation
        (the system instructions stay), /quit ends the chat, as does the end of input (Ctrl-D),
        /help lists them. The prompt marker (on stderr) appears only when stdin is a terminal.

        A failed turn (no model available, refused, context exceeded, backend error, --timeout)
        is reported on stderr and leaves no trace in the conversation; the chat goes on with the
        next line. Ctrl-C during an answer cancels that answer and returns to the prompt; at the
        prompt it ends the chat (exit code 5). After /quit or the end of input the exit code is 0,
        whatever the turns did.
        """

    static let commandsText = "/reset forgets the conversation, /quit or Ctrl-D ends the chat"

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let generation = try GenerationArguments(arguments)
        let json = arguments.flag("json")
        let host = try context.host()
        let model = try generation.model(on: host)
        var session = generation.session(on: model)
        while true {
            Terminal.forTypist("> ")
            guard let line = await nextLine() else { break }
            let text = line.trimmingCharacters(in: .whitespaces)
            switch text {
            case "":
                continue
            case "/quit":
                return .success
            case "/reset":
                session = generation.session(on: model)
                Terminal.log("conversation forgotten")
            case "/help":
                Terminal.log(commandsText)
            case let word where word.hasPrefix("/") && !word.contains(" "):
                Terminal.error("unknown chat command \(word) (\(commandsText))")
            default:
                await answer(text, on: session, generation, json: json)
            }
        }
        Terminal.forTypist("\n")
        return .success
    }

    /// One turn: the answer streamed (or one JSON object), or the error reported; never throws,
    /// so the chat goes on. A failed turn leaves the session's transcript as it was.
    private static func answer(
        _ prompt: String, on session: LanguageModelSession, _ generation: GenerationArguments, json: Bool
    ) async {
        var printedPiece = false
        do {
            let response = try await CancellableGeneration.run(timeout: generation.timeout) { token in
                try await ModelWait.ready(session.model, locale: generation.locale, cancellation: token)
                let stream = session.streamResponse(to: prompt, options: generation.requestOptions, cancellation: token)
                return try await StreamedAnswer.collect(stream) { piece in
                    guard !json else { return }
                    Terminal.out(piece, terminator: "")
                    printedPiece = true
                }
            }
            if json {
                Terminal.out(JSONReport.response(response).jsonText(sortingKeys: true))
            } else {
                Terminal.out("")
                Terminal.log(response.servedByText)
            }
        } catch {
            // Ends the line of an answer cut short, so the error and the next turn start fresh.
            if printedPiece { Terminal.out("") }
            _ = CommandRegistry.report(error, json: json)
        }
    }

    /// The next line without its newline, nil at the end of input; read on a blocking-call
    /// thread, not on Swift's cooperative pool.
    private static func nextLine() async -> String? {
        await BlockingExecutor.shared.run(cancelling: CancellationToken()) { readLine() }
    }
}
