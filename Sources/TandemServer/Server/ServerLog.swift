import Foundation

/// The server's log: one line per request on stderr (method, path, status, time, who served).
/// Headers and bodies are never written, so neither the API key nor a conversation reaches it.
enum ServerLog {
    static func write(_ line: String) {
        FileHandle.standardError.write(Data("tandem serve: \(line)\n".utf8))
    }
}
