/// A `tandem` subcommand. Adding one is a new type listed in `CommandRegistry.commands`;
/// `--help`, `--config` and error handling come with it.
protocol Command: Sendable {
    /// The word after `tandem` (`respond`).
    static var name: String { get }
    /// One line for `tandem --help`.
    static var summary: String { get }
    /// The argument part of the usage line (`[PROMPT] [options]`).
    static var arguments: String { get }
    /// Paragraphs shown by `tandem NAME --help` after the options.
    static var discussion: String { get }
    static var options: [OptionSpec] { get }
    static var maxPositionals: Int { get }
    /// True when `--json` asks for machine output (errors are then JSON too).
    static func wantsJSON(_ arguments: ParsedArguments) -> Bool

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode
}

extension Command {
    static var discussion: String { "" }
    static var maxPositionals: Int { 0 }
    static func wantsJSON(_ arguments: ParsedArguments) -> Bool { arguments.flag("json") }
}
