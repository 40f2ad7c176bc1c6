import Foundation

/// Mood, category and theme tags (lower-case words, e.g. mood "hopeful", category "courage").
public struct QuoteTags: Codable, Equatable, Sendable {
    public var moods: [String]
    public var categories: [String]
    public var themes: [String]

    public init(moods: [String] = [], categories: [String] = [], themes: [String] = []) {
        (self.moods, self.categories, self.themes) = (moods, categories, themes)
    }

    var rows: [(kind: String, tag: String)] {
        moods.map { ("mood", $0) } + categories.map { ("category", $0) } + themes.map { ("theme", $0) }
    }
}
