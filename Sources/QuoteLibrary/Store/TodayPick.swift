/// The quote-of-the-day rule, shared by the library and by the bundled catalog read when no
/// library exists: among the quotes of the locale (else English) in id order, the one at the
/// day's hash modulo their count, so a day keeps its quote.
enum TodayPick {
    static func locales(for locale: String) -> [String] { locale == "en" ? ["en"] : [locale, "en"] }

    /// FNV-1a of the day text, so a day keeps its quote across runs and platforms.
    static func offset(of day: CalendarDay, among count: Int) -> Int { Int(FNV1a.hash(day.description) % UInt64(count)) }
}
