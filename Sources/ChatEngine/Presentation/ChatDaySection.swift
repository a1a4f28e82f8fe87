import Foundation

/// A run of consecutive messages written on the same day, under its separator.
public struct ChatDaySection: Hashable, Sendable, Identifiable {
  /// The id of the section's first message.
  public var id: UUID
  /// The start of the day in the viewer's calendar and time zone.
  public var day: Date
  /// "Today", "Yesterday", or the date in the viewer's locale.
  public var title: String
  /// The indices of the section's messages in the thread.
  public var range: Range<Int>

  /// Creates a section.
  public init(id: UUID, day: Date, title: String, range: Range<Int>) {
    self.id = id
    self.day = day
    self.title = title
    self.range = range
  }

  /// Groups a thread into day sections: a pure function of the dates, `now`, and the viewer's
  /// calendar, time zone and locale.
  ///
  /// Thread order is kept: a message whose day differs from the previous message's starts a new
  /// section, even if that day came before. A date after today counts as today. Days are the
  /// calendar's days in `timeZone`, so days of 23 or 25 hours and zones 14 hours from UTC fall
  /// where a person there expects. Dates in the current year read like "Monday, March 2",
  /// others like "March 2, 2025" (in `locale`'s words and order).
  ///
  /// - Complexity: O(n) comparisons, plus calendar work and one formatted date per section.
  public static func sections(
    for messages: [ChatMessage], now: Date, calendar: Calendar, timeZone: TimeZone, locale: Locale
  ) -> [ChatDaySection] {
    sections(for: messages[...], now: now, calendar: calendar, timeZone: timeZone, locale: locale)
  }

  /// How dates relate to `now` in section titles.
  package enum Mode: Sendable {
    /// The live thread: Today and Yesterday, and a date after today counts as today (a clock
    /// that runs ahead must not push a turn into a section of its own).
    case live
    /// A saved transcript: Today and Yesterday, but every other day, past or future, is its own
    /// section under its date.
    case dated
    /// A document read at any time (the web page, markdown): every title is the date.
    case absolute
  }

  /// The sections of a slice of a thread, with ranges in the thread's indices.
  ///
  /// Titles use the proleptic Gregorian calendar for every year (Foundation's Gregorian calendar
  /// switches to the Julian one before October 1582, which a browser never does).
  package static func sections(
    for messages: ArraySlice<ChatMessage>, now: Date, calendar: Calendar, timeZone: TimeZone, locale: Locale,
    mode: Mode = .live
  ) -> [ChatDaySection] {
    var calendar = calendar
    calendar.timeZone = timeZone
    calendar.locale = locale
    guard !messages.isEmpty, let today = calendar.dateInterval(of: .day, for: now) else { return [] }
    let yesterday = calendar.dateInterval(of: .day, for: today.start.addingTimeInterval(-1))
    let titles = _DayTitles(
      calendar: calendar, today: mode == .absolute ? nil : today.start,
      yesterday: mode == .absolute ? nil : yesterday?.start)
    var sections: [ChatDaySection] = []
    var day = today
    for (index, message) in zip(messages.indices, messages) {
      let date = message.date
      if !sections.isEmpty, date >= day.start, date < day.end || (mode == .live && day.start == today.start) {
        sections[sections.count - 1].range = sections[sections.count - 1].range.lowerBound..<(index + 1)
        continue
      }
      if mode == .live && date >= today.start {
        day = today
      } else if let interval = calendar.dateInterval(of: .day, for: date) {
        day = interval
      } else {
        day = DateInterval(start: date, duration: 0)
      }
      sections.append(
        ChatDaySection(id: message.id, day: day.start, title: titles.title(for: day.start), range: index..<(index + 1)))
    }
    return sections
  }
}
