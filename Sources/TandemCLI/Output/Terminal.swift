import Foundation

/// Where output goes: results on stdout, logs and errors on stderr, progress on stderr only
/// when stderr is a terminal.
enum Terminal {
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1
    static let stdinIsTerminal = isatty(STDIN_FILENO) == 1

    static func out(_ text: String, terminator: String = "\n") {
        FileHandle.standardOutput.write(Data((text + terminator).utf8))
    }

    static func log(_ text: String) {
        FileHandle.standardError.write(Data("tandem: \(text)\n".utf8))
    }

    static func error(_ text: String) { log("error: \(text)") }

    /// Text for a person typing (the chat's prompt marker): on stderr, only when stdin is a terminal.
    static func forTypist(_ text: String) {
        guard stdinIsTerminal else { return }
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// A transient status line, only for people watching.
    static func progress(_ text: String) {
        guard stderrIsTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    static func clearProgress() {
        guard stderrIsTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
