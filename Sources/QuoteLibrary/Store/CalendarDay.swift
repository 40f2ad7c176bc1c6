import Foundation

/// A calendar day as the streak counts it (`YYYY-MM-DD`, in the user's own time zone, decided by
/// the caller). Validated on construction so a malformed day never reaches the database.
public struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init(_ text: String) throws {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              let checked = Self.date(year: year, month: month, day: day),
              Self.calendar.component(.day, from: checked) == day
        else { throw StoreError(.invalidArgument, "day \"\(text)\" is not a calendar day in YYYY-MM-DD form") }
        (self.year, self.month, self.day) = (year, month, day)
    }

    public init(_ date: Date, timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        (year, month, day) = (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }

    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// The day before (month and year boundaries, leap years).
    public var previous: CalendarDay {
        let date = Self.date(year: year, month: month, day: day)!
        return CalendarDay(Self.calendar.date(byAdding: .day, value: -1, to: date)!, timeZone: Self.calendar.timeZone)
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private static func date(year: Int, month: Int, day: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
    }
}
