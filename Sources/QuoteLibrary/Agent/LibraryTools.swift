import Foundation
import JSONModel

/// The `ask` agent's three read-only tools (README "The quote library", `ask`): catalog search (≤ 5
/// results, by mood, category or theme), saved-quote search (≤ 8, no date ranges) and streak
/// status. They only run on a read-only store (SQLITE_OPEN_READONLY + query_only), take bounded
/// JSON arguments, and return bounded JSON, so nothing in a user question can make them write.
public struct LibraryTools: Sendable {
    public struct Definition: Codable, Equatable, Sendable {
        public let name: String
        public let description: String
        /// JSON Schema of the arguments object.
        public let parametersSchema: String
    }

    /// A tool call's answer: JSON text for the model, or an error message naming what was wrong.
    public enum Answer: Equatable, Sendable {
        case output(String)
        case error(String)
    }

    public static let catalogLimit = 5
    public static let savedLimit = 8
    public static let maximumArgumentBytes = 512
    public static let maximumTextArgument = 60
    public static let maximumOutputCharacters = 2000

    public static let definitions: [Definition] = [
        Definition(name: "search_catalog",
                   description: "Find up to 5 public-domain quotes from the curated catalog by mood, category or theme.",
                   parametersSchema: #"{"type":"object","additionalProperties":false,"properties":{"mood":{"type":"string","maxLength":60},"category":{"type":"string","maxLength":60},"theme":{"type":"string","maxLength":60},"limit":{"type":"integer","minimum":1,"maximum":5}}}"#),
        Definition(name: "search_saved",
                   description: "Find up to 8 of the user's saved or favourite quotes, optionally containing some text.",
                   parametersSchema: #"{"type":"object","additionalProperties":false,"properties":{"text":{"type":"string","maxLength":60},"mark":{"type":"string","enum":["saved","favorite"]},"limit":{"type":"integer","minimum":1,"maximum":8}}}"#),
        Definition(name: "streak_status",
                   description: "The user's current and longest daily streak.",
                   parametersSchema: #"{"type":"object","additionalProperties":false,"properties":{}}"#),
    ]

    private let store: QuoteStore
    private let today: CalendarDay

    public init(store: QuoteStore, today: CalendarDay) throws {
        guard store.isReadOnly else {
            throw StoreError(.invalidArgument, "the agent tools need a read-only connection to \(store.path)")
        }
        (self.store, self.today) = (store, today)
    }

    public func call(_ name: String, arguments: String) -> Answer {
        do {
            let object = try Self.parse(arguments)
            switch name {
            case "search_catalog":
                try Self.allow(object, ["mood", "category", "theme", "limit"], tool: name)
                let filters = try ["mood", "category", "theme"].map { try Self.text(object, $0) }
                guard filters.contains(where: { $0 != nil }) else {
                    return .error("search_catalog needs at least one of mood, category or theme")
                }
                let limit = try Self.limit(object, maximum: Self.catalogLimit)
                return .output(Self.render(try store.searchCatalog(mood: filters[0], category: filters[1],
                                                                   theme: filters[2], limit: limit)))
            case "search_saved":
                try Self.allow(object, ["text", "mark", "limit"], tool: name)
                let mark = try Self.text(object, "mark").map { value -> QuoteStore.Mark in
                    guard let mark = QuoteStore.Mark(rawValue: value) else {
                        throw ToolArgumentError("mark must be \"saved\" or \"favorite\", got \"\(value)\"")
                    }
                    return mark
                }
                let limit = try Self.limit(object, maximum: Self.savedLimit)
                return .output(Self.render(try store.searchSaved(containing: try Self.text(object, "text"), mark: mark,
                                                                 limit: limit)))
            case "streak_status":
                try Self.allow(object, [], tool: name)
                let data = try JSONEncoder().encode(try store.streak(asOf: today))
                return .output(String(decoding: data, as: UTF8.self))
            default:
                return .error("unknown tool \"\(name.prefix(40))\"; the tools are search_catalog, search_saved, streak_status")
            }
        } catch let error as ToolArgumentError {
            return .error("\(name.prefix(40)): \(error.message)")
        } catch {
            return .error("\(name.prefix(40)) failed: \(error)")
        }
    }

    // MARK: Arguments

    struct ToolArgumentError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private static func parse(_ arguments: String) throws -> JSONObject {
        guard arguments.utf8.count <= maximumArgumentBytes else {
            throw ToolArgumentError("arguments are \(arguments.utf8.count) bytes; at most \(maximumArgumentBytes) allowed")
        }
        let trimmed = arguments.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return JSONObject() }
        guard let object = (try? JSONValue(parsing: trimmed))?.objectValue else {
            throw ToolArgumentError("arguments must be a JSON object")
        }
        return object
    }

    private static func allow(_ object: JSONObject, _ keys: Set<String>, tool: String) throws {
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            let hint = tool == "search_saved" ? " (saved search takes no date ranges)" : ""
            throw ToolArgumentError("unknown argument \"\(unknown.prefix(40))\"\(hint); allowed: "
                                    + (keys.isEmpty ? "none" : keys.sorted().joined(separator: ", ")))
        }
    }

    private static func text(_ object: JSONObject, _ key: String) throws -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value.stringValue else { throw ToolArgumentError("\(key) must be a string") }
        guard text.count <= maximumTextArgument else {
            throw ToolArgumentError("\(key) has \(text.count) characters; at most \(maximumTextArgument) allowed")
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func limit(_ object: JSONObject, maximum: Int) throws -> Int {
        guard let value = object["limit"] else { return maximum }
        guard let number = value.integerValue, (1...Int64(maximum)).contains(number) else {
            throw ToolArgumentError("limit must be an integer from 1 to \(maximum)")
        }
        return Int(number)
    }

    // MARK: Output

    /// JSON of the results, dropping trailing results until the whole answer fits the bound.
    static func render(_ quotes: [StoredQuote]) -> String {
        struct Item: Encodable { let text: String; let author: String?; let source: String; let moods, categories, themes: [String] }
        struct Output: Encodable { let results: [Item]; let truncated: Bool }
        let items = quotes.map { Item(text: $0.text, author: $0.author, source: $0.source.rawValue, moods: $0.tags.moods,
                                      categories: $0.tags.categories, themes: $0.tags.themes) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for count in stride(from: items.count, through: 0, by: -1) {
            let output = Output(results: Array(items.prefix(count)), truncated: count < items.count)
            if let data = try? encoder.encode(output), data.count <= maximumOutputCharacters {
                return String(decoding: data, as: UTF8.self)
            }
        }
        return #"{"results":[],"truncated":true}"#
    }
}
