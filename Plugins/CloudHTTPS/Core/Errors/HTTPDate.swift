/// HTTP-dates (RFC 9110 §5.6.7) as a `Retry-After` may carry them: the IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), which senders must use, and the two obsolete forms
/// recipients must still read (RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime
/// `Sun Nov  6 08:49:37 1994`). Always UTC.
enum HTTPDate {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Seconds since the Unix epoch, or nil when `text` is none of the three forms.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(whereSeparator: { " ,-:".contains($0) }).map(String.init)
        guard let weekday = parts.first, weekday.count >= 3, weekday.allSatisfy(\.isLetter) else { return nil }
        let day: String, month: String, year: String, clock: ArraySlice<String>
        switch parts.count {
        case 8 where parts[7] == "GMT":  // IMF-fixdate, RFC 850
            (day, month, year, clock) = (parts[1], parts[2], parts[3], parts[4...6])
        case 7:  // asctime
            (month, day, clock, year) = (parts[1], parts[2], parts[3...5], parts[6])
        default:
            return nil
        }
        guard let monthIndex = months.firstIndex(of: month), let d = Int(day), (1...31).contains(d),
              var y = Int(year), year.count == 2 || year.count == 4,
              let h = Int(clock[clock.startIndex]), let m = Int(clock[clock.startIndex + 1]), let s = Int(clock[clock.startIndex + 2]),
              (0...23).contains(h), (0...59).contains(m), (0...60).contains(s)
        else { return nil }
        if year.count == 2 { y += y < 70 ? 2000 : 1900 }
        return Double(daysSinceEpoch(year: y, month: monthIndex + 1, day: d) * 86_400 + h * 3600 + m * 60 + s)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
