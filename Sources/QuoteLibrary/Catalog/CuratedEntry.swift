/// One quote of the bundled public-domain catalog, as written in the catalog data.
public struct CuratedEntry: Codable, Equatable, Sendable {
    public let text: String
    public let author: String
    /// The author's year of death: the catalog only holds authors dead well over 70 years.
    public let died: Int
    public let locale: String
    public let mood: [String]
    public let category: [String]
    public let theme: [String]

    public var tags: QuoteTags { QuoteTags(moods: mood, categories: category, themes: theme) }
}
