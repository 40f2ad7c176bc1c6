import Foundation
import JSONModel
import Tandem

/// The subcommands of `tandem` and the dispatch that every one shares: global `--config`,
/// `--help`, `--version`, and turning errors into messages and exit codes.
enum CommandRegistry {
    /// Every subcommand, in `--help` order.
    static let commands: [Entry] = [Entry(BackendsCommand.self), Entry(AvailabilityCommand.self), Entry(RespondCommand.self),
                                    Entry(ChatCommand.self), QuoteCommands.entry, Entry(AskCommand.self), Entry(EvalCommand.self),
                                    Entry(EmbedCommand.self), Entry(ServeCommand.self)]

    /// A registered command, with its type erased behind closures.
    struct Entry: Sendable {
        let name: String
        let summary: String
        let dispatch: @Sendable (_ arguments: [String], _ configPath: String?) async -> ExitCode

        init<C: Command>(_ command: C.Type) {
            name = C.name
            summary = C.summary
            dispatch = { arguments, configPath in await CommandRegistry.dispatch(command, arguments, configPath: configPath) }
        }
    }

    static let version = "0.1.0"

    /// Options every command accepts.
    static let commonOptions: [OptionSpec] = [
        .option("config", "PATH", "config file (default: $TANDEM_CONFIG, else tandem.json next to the binary, else in the working directory)"),
        .flag("help", "show this help"),
    ]

    static func main(_ arguments: [String]) async -> ExitCode {
        var rest = arguments[...]
        var configPath: String?
        // Global options before the command name.
        while let first = rest.first, first.hasPrefix("--") {
            rest = rest.dropFirst()
            switch first {
            case "--help", "-h":
                Terminal.out(toolHelp)
                return .success
            case "--version":
                Terminal.out("tandem \(version) (plugin ABI \(abiText(PluginLoader.supportedABI.lowerBound))–\(abiText(PluginLoader.supportedABI.upperBound)))")
                return .success
            case "--config":
                guard let path = rest.first else { return usage(UsageError("tandem", "--config needs a value (--config PATH)")) }
                configPath = path
                rest = rest.dropFirst()
            case let option where option.hasPrefix("--config="):
                configPath = String(option.dropFirst("--config=".count))
            default:
                return usage(UsageError("tandem", "unknown option \(first) (commands come first: tandem COMMAND --help)"))
            }
        }
        guard let name = rest.first else {
            return usage(UsageError("tandem", "no command given"))
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            return usage(UsageError("tandem", "unknown command '\(name)' (commands: \(commands.map(\.name).joined(separator: ", ")))"))
        }
        return await command.dispatch(Array(rest.dropFirst()), configPath)
    }

    /// Parses and runs one command (generic, so the command type is concrete from here on).
    fileprivate static func dispatch<C: Command>(_ command: C.Type, _ arguments: [String], configPath: String?) async -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(
                command: C.name, arguments: arguments, options: C.options + commonOptions, maxPositionals: C.maxPositionals)
        } catch {
            return usage(error)
        }
        if parsed.flag("help") {
            Terminal.out(help(for: command))
            return .success
        }
        let context = CommandContext(configPath: parsed.string("config") ?? configPath)
        do {
            return try await C.run(parsed, context: context)
        } catch {
            return report(error, json: C.wantsJSON(parsed))
        }
    }

    static func usage(_ error: UsageError) -> ExitCode {
        Terminal.error(error.message)
        Terminal.log(error.command == "tandem" ? "see: tandem --help" : "see: tandem \(error.command) --help")
        return .usage
    }

    /// Prints an error (on stderr; also as JSON on stdout when asked) and picks the exit code.
    static func report(_ error: any Error, json: Bool) -> ExitCode {
        let code: ExitCode
        var object: JSONObject = ["message": .string("\(error)")]
        switch error {
        case let error as UsageError:
            return usage(error)
        case let error as ConfigError:
            code = .config
            object["code"] = .string("config.\(error.code)")
            object["message"] = .string(error.description)
        case let error as TandemError:
            code = exitCode(for: error)
            object = JSONReport.error(error)
        default:
            code = .failure
        }
        Terminal.error(object["message"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "\(error)")
        if json { Terminal.out(JSONValue.object(["error": .object(object)]).jsonText(sortingKeys: true)) }
        return code
    }

    static func exitCode(for error: TandemError) -> ExitCode {
        switch error.code {
        case .unavailable, .unsupportedRequest: .unavailable
        case .cancelled, .timeout: .cancelled
        case .backendFailure: .backendError
        case .invalidOptions, .emptyPrompt, .unsupportedGuide: .usage
        case .decodingFailure: .backendError
        case .unknownBackend: .config
        default: .failure
        }
    }

    private static func abiText(_ version: UInt32) -> String { "\(version >> 16).\(version & 0xFFFF)" }

    static var exitCodeHelp: String {
        "Exit codes:\n" + ExitCode.all.map { "  \($0.rawValue)  \($0.meaning)" }.joined(separator: "\n")
    }

    static var toolHelp: String {
        let width = commands.map(\.name.count).max() ?? 0
        let list = commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
            tandem: a hybrid language-model host (local and cloud models behind one router)

            Usage: tandem [--config PATH] COMMAND [options]
                   tandem --help | --version

            Commands:
            \(list.joined(separator: "\n"))

            Run 'tandem COMMAND --help' for a command's options.

            Config: --config PATH, else $TANDEM_CONFIG, else tandem.json next to the tandem binary,
            else tandem.json in the working directory.

            \(exitCodeHelp)
            """
    }

    static func help<C: Command>(for command: C.Type) -> String {
        let all = command.options + commonOptions
        let width = all.map(\.synopsis.count).max() ?? 0
        let lines = all.map { "  \($0.synopsis.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.help)" }
        var text = """
            tandem \(command.name): \(command.summary)

            Usage: tandem \(command.name) \(command.arguments)

            Options:
            \(lines.joined(separator: "\n"))
            """
        if !command.discussion.isEmpty { text += "\n\n" + command.discussion }
        return text + "\n\n" + exitCodeHelp
    }
}
