import Foundation

/// Titles of day separators, with one date formatter per call of ``ChatDaySection/sections``.
struct _DayTitles {
  let calendar: Calendar
  let today: Date
  let yesterday: Date?
  let thisYear: Int
  let sameYear: DateFormatter
  let otherYear: DateFormatter

  init(calendar: Calendar, today: Date, yesterday: Date?) {
    self.calendar = calendar
    self.today = today
    self.yesterday = yesterday
    self.thisYear = calendar.component(.year, from: today)
    self.sameYear = Self.formatter(calendar, template: "EEEEMMMMd")
    self.otherYear = Self.formatter(calendar, template: "yMMMMd")
  }

  func title(for day: Date) -> String {
    if day == today { return "Today" }
    if day == yesterday { return "Yesterday" }
    let formatter = calendar.component(.year, from: day) == thisYear ? sameYear : otherYear
    return formatter.string(from: day)
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
