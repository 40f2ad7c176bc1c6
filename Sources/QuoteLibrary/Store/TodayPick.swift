/// The quote-of-the-day rule, shared by the library and by the bundled catalog read when no
/// library exists: among the quotes of the locale (else English) in id order, the one at the
/// day's hash modulo their count, so a day keeps its quote.
enum TodayPick {
    static func locales(for locale: String) -> [String] { locale == "en" ? ["en"] : [locale, "en"] }

    static func offset(of day: CalendarDay, among count: Int) -> Int { Int(dayIndex(day) % UInt64(count)) }

    /// FNV-1a of the day text: stable across runs and platforms (Swift's Hasher is seeded per process).
    private static func dayIndex(_ day: CalendarDay) -> UInt64 {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in day.description.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return hash
    }
}
