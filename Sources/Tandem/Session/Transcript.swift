/// The conversation a session has had, oldest first. On every request the serving model
/// receives all of it, so a fallback to the other side never loses history.
public struct Transcript: Hashable, Sendable {
    public enum Entry: Hashable, Sendable {
        /// The session's system instructions.
        case instructions(String)
        case prompt(String)
        /// An answer, with the backend that gave it and its model version.
        case response(String, servedBy: String, modelVersion: String)
    }

    public private(set) var entries: [Entry]

    public init(entries: [Entry] = []) { self.entries = entries }

    mutating func append(_ entry: Entry) { entries.append(entry) }

    /// The conversation as backend messages.
    public var messages: [Message] {
        entries.map { entry in
            switch entry {
            case .instructions(let text): .system(text)
            case .prompt(let text): .user(text)
            case .response(let text, _, _): .assistant(text)
            }
        }
    }
}
