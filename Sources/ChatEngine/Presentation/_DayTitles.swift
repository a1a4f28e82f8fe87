import Foundation

/// Titles of day separators, with one date formatter per call of ``ChatDaySection/sections``.
///
/// Dates are printed in the proleptic Gregorian calendar whatever the year: a day before 1583 is
/// formatted as the same day 400·k years later (the Gregorian calendar repeats every 400 years,
/// weekdays included), with the year put back in the text.
struct _DayTitles {
  let calendar: Calendar
  let today: Date?
  let yesterday: Date?
  let thisYear: Int?
  let sameYear: DateFormatter
  let otherYear: DateFormatter

  init(calendar: Calendar, today: Date?, yesterday: Date?) {
    self.calendar = calendar
    self.today = today
    self.yesterday = yesterday
    self.thisYear = today.map { _InternetDate.civil($0, timeZone: calendar.timeZone).year }
    self.sameYear = Self.formatter(calendar, template: "EEEEMMMMd")
    self.otherYear = Self.formatter(calendar, template: "yMMMMd")
    self.relative = Self.relativeWords(calendar.locale)
  }

  /// "Today" and "Yesterday" in the language the dates are printed in: English, German, French
  /// or Spanish (the languages of the exported page, which says them as the browser's `Intl`
  /// does), else English. Foundation on Linux has no relative date formatting to ask.
  let relative: (today: String, yesterday: String)

  static func relativeWords(_ locale: Locale?) -> (today: String, yesterday: String) {
    let language = locale.map { String($0.identifier.prefix { $0 != "_" && $0 != "-" }).lowercased() }
    switch language {
    case "de": return ("Heute", "Gestern")
    case "fr": return ("Aujourd\u{2019}hui", "Hier")
    case "es": return ("Hoy", "Ayer")
    default: return ("Today", "Yesterday")
    }
  }

  /// The title of `day`, its first letter a capital: a title starts its line, and French and
  /// Spanish dates start with a weekday in lower case (`jueves, 3 de diciembre`; a trial).
  func title(for day: Date) -> String {
    let text = uncapitalizedTitle(for: day)
    guard let first = text.first, first.isLowercase else { return text }
    return String(first).uppercased(with: calendar.locale) + text.dropFirst()
  }

  private func uncapitalizedTitle(for day: Date) -> String {
    if day == today { return relative.today }
    if day == yesterday { return relative.yesterday }
    let year = _InternetDate.civil(day, timeZone: calendar.timeZone).year
    let formatter = year == thisYear ? sameYear : otherYear
    guard year < 1583 else { return formatter.string(from: day) }
    let cycles = (2000 - year + 399) / 400
    let shiftedYear = year + 400 * cycles
    // Noon, so that the zone's different offsets in the two years cannot move the day.
    let shifted = day.addingTimeInterval(Double(cycles) * 146_097 * 86_400 + 12 * 3600)
    let text = formatter.string(from: shifted)
    return text.replacingOccurrences(of: String(shiftedYear), with: String(year))
  }

  private static func formatter(_ calendar: Calendar, template: String) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.calendar = calendar
    formatter.timeZone = calendar.timeZone
    formatter.locale = calendar.locale
    formatter.setLocalizedDateFormatFromTemplate(template)
    return formatter
  }
}
