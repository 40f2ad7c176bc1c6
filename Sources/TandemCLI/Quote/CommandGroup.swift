/// A word that groups subcommands (`tandem quote check`): `tandem quote --help` lists them, and
/// each is an ordinary `Command` named with both words, so its options, `--help` and errors
/// work as for any command.
extension CommandRegistry.Entry {
    init(group name: String, summary: String, _ subcommands: [CommandRegistry.Entry]) {
        self.name = name
        self.summary = summary
        dispatch = { arguments, configPath in
            guard let word = arguments.first, !word.hasPrefix("--") || word == "--help" else {
                return CommandRegistry.usage(UsageError(name, "no \(name) command given (\(Self.list(subcommands, name)))"))
            }
            if word == "--help" {
                Terminal.out(Self.help(name, summary, subcommands))
                return .success
            }
            guard let entry = subcommands.first(where: { $0.name == "\(name) \(word)" }) else {
                return CommandRegistry.usage(UsageError(name, "unknown \(name) command '\(word)' (\(Self.list(subcommands, name)))"))
            }
            return await entry.dispatch(Array(arguments.dropFirst()), configPath)
        }
    }

    private static func list(_ subcommands: [CommandRegistry.Entry], _ group: String) -> String {
        "commands: " + subcommands.map { String($0.name.dropFirst(group.count + 1)) }.joined(separator: ", ")
    }

    private static func help(_ name: String, _ summary: String, _ subcommands: [CommandRegistry.Entry]) -> String {
        let width = subcommands.map(\.name.count).max() ?? 0
        let lines = subcommands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
            tandem \(name): \(summary)

            Commands:
            \(lines.joined(separator: "\n"))

            Run 'tandem \(name) COMMAND --help' for a command's options.
            """
    }
}
