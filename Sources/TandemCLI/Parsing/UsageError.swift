/// A mistake on the command line: what was wrong, and for which command (so the message can
/// point at that command's `--help`).
struct UsageError: Error, CustomStringConvertible {
    var command: String
    var message: String

    init(_ command: String, _ message: String) {
        self.command = command
        self.message = message
    }

    var description: String { message }
}
