import ChatEngine
import Foundation
import Testing

/// A date from wall-clock fields in `zone`.
private func wall(
  _ zone: String, _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 12, _ minute: Int = 0, _ second: Int = 0
) -> Date {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
  let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
  return calendar.date(from: components) ?? .distantPast
}

private func messages(_ dates: [Date]) -> [ChatMessage] {
  dates.enumerated().map {
    ChatMessage(id: testID($0.offset + 1), role: .user, text: "m\($0.offset)", date: $0.element)
  }
}

/// Section titles with their message ranges, e.g. `["Yesterday 0..<2", "Today 2..<3"]`.
private func layout(
  _ dates: [Date], now: Date, zone: String, locale: String = "en_US"
) -> [String] {
  let timeZone = TimeZone(identifier: zone) ?? .gmt
  return ChatDaySection.sections(
    for: messages(dates), now: now, calendar: Calendar(identifier: .gregorian), timeZone: timeZone,
    locale: Locale(identifier: locale)
  ).map { "\($0.title) \($0.range.lowerBound)..<\($0.range.upperBound)" }
}

@Suite("Day sections")
struct DaySectionTests {
  @Test func emptyThreadHasNoSections() throws {
    #expect(layout([], now: referenceDate, zone: "UTC").isEmpty)
  }

  /// With German dates the transcript said "Dienstag, 1. Dezember", then "Yesterday" and "Today"
  /// (a trial): the relative days are in the dates' language (the exported page's four), else
  /// English.
  @Test(arguments: [
    ("de_DE", "Gestern", "Heute"), ("fr_FR", "Hier", "Aujourd\u{2019}hui"), ("es_ES", "Ayer", "Hoy"),
    ("en_GB", "Yesterday", "Today"), ("ja_JP", "Yesterday", "Today"),
  ])
  func relativeDaysSpeakTheDatesLanguage(locale: String, yesterday: String, today: String) throws {
    let now = wall("UTC", 2026, 3, 10)
    let dates = [wall("UTC", 2026, 3, 1), wall("UTC", 2026, 3, 9), wall("UTC", 2026, 3, 10)]
    let titles = layout(dates, now: now, zone: "UTC", locale: locale)
    #expect(titles.dropFirst() == ["\(yesterday) 1..<2", "\(today) 2..<3"])
    if locale == "de_DE" { #expect(titles.first == "Sonntag, 1. März 0..<1") }
    // A title starts its line with a capital, weekday first or not (a trial: `domingo, 1 de marzo`).
    if locale == "es_ES" || locale == "fr_FR" {
      #expect(titles.first?.first?.isUppercase == true, "\(titles)")
      #expect(titles.first?.lowercased().hasPrefix(locale == "es_ES" ? "domingo" : "dimanche") == true, "\(titles)")
    }
  }

  @Test func kiritimatiMidnight() throws {
    let zone = "Pacific/Kiritimati"  // UTC+14
    let now = wall(zone, 2026, 3, 10, 0, 0, 30)
    let dates = [
      wall(zone, 2026, 3, 8, 23, 59, 59), wall(zone, 2026, 3, 9, 0, 0, 0), wall(zone, 2026, 3, 9, 23, 59, 59),
      wall(zone, 2026, 3, 10, 0, 0, 0),
    ]
    #expect(layout(dates, now: now, zone: zone) == ["Sunday, March 8 0..<1", "Yesterday 1..<3", "Today 3..<4"])
  }

  @Test func pagoPagoMidnightAndTheSameInstantsInKiritimati() throws {
    let zone = "Pacific/Pago_Pago"  // UTC-11
    let now = wall(zone, 2026, 3, 10, 0, 0, 30)
    let dates = [wall(zone, 2026, 3, 9, 23, 59, 59), wall(zone, 2026, 3, 10, 0, 0, 0)]
    #expect(layout(dates, now: now, zone: zone) == ["Yesterday 0..<1", "Today 1..<2"])
    // 25 hours ahead, the same instants are both on March 11, which is today there.
    #expect(layout(dates, now: now, zone: "Pacific/Kiritimati") == ["Today 0..<2"])
  }

  @Test func kolkataHalfHourOffset() throws {
    let zone = "Asia/Kolkata"  // UTC+5:30: midnight is 18:30 UTC
    let now = wall("UTC", 2026, 3, 10, 6, 0)
    let dates = [wall("UTC", 2026, 3, 9, 18, 29, 59), wall("UTC", 2026, 3, 9, 18, 30, 0)]
    #expect(layout(dates, now: now, zone: zone) == ["Yesterday 0..<1", "Today 1..<2"])
    #expect(layout(dates, now: now, zone: "UTC") == ["Yesterday 0..<2"])
  }

  @Test func berlinSpringForwardDayHas23Hours() throws {
    let zone = "Europe/Berlin"  // 2026-03-29: 02:00 becomes 03:00
    let now = wall(zone, 2026, 3, 30, 10)
    let dates = [
      wall(zone, 2026, 3, 28, 23, 30), wall(zone, 2026, 3, 29, 0, 0), wall(zone, 2026, 3, 29, 3, 0),
      wall(zone, 2026, 3, 29, 23, 59, 59), wall(zone, 2026, 3, 30, 0, 0),
    ]
    #expect(layout(dates, now: now, zone: zone) == ["Saturday, March 28 0..<1", "Yesterday 1..<4", "Today 4..<5"])
  }

  @Test func berlinFallBackDayHas25Hours() throws {
    let zone = "Europe/Berlin"  // 2026-10-25: 03:00 becomes 02:00
    let now = wall(zone, 2026, 10, 26, 9)
    let dates = [
      wall(zone, 2026, 10, 24, 23, 30), wall(zone, 2026, 10, 25, 0, 30), wall(zone, 2026, 10, 25, 23, 59, 59),
      wall(zone, 2026, 10, 26, 0, 0),
    ]
    #expect(layout(dates, now: now, zone: zone) == ["Saturday, October 24 0..<1", "Yesterday 1..<3", "Today 3..<4"])
  }

  @Test func futureDatesCountAsToday() throws {
    let now = wall("UTC", 2026, 3, 10, 12)
    let dates = [wall("UTC", 2026, 3, 10, 9), wall("UTC", 2026, 3, 12, 9), wall("UTC", 2027, 1, 1)]
    #expect(layout(dates, now: now, zone: "UTC") == ["Today 0..<3"])
    #expect(layout([wall("UTC", 2026, 3, 11, 0)], now: now, zone: "UTC") == ["Today 0..<1"])
  }

  @Test func threadOrderIsKeptWhenDatesGoBack() throws {
    let now = wall("UTC", 2026, 3, 10, 12)
    let dates = [wall("UTC", 2026, 3, 8), wall("UTC", 2026, 3, 10, 8), wall("UTC", 2026, 3, 8, 13)]
    #expect(layout(dates, now: now, zone: "UTC") == ["Sunday, March 8 0..<1", "Today 1..<2", "Sunday, March 8 2..<3"])
  }

  @Test func otherYearsShowTheYearAndTheLocaleDecidesTheWords() throws {
    let now = wall("UTC", 2026, 3, 10, 12)
    let dates = [wall("UTC", 2025, 12, 31, 12), wall("UTC", 2026, 3, 8)]
    #expect(layout(dates, now: now, zone: "UTC") == ["December 31, 2025 0..<1", "Sunday, March 8 1..<2"])
    #expect(
      layout(dates, now: now, zone: "UTC", locale: "de_DE") == ["31. Dezember 2025 0..<1", "Sonntag, 8. März 1..<2"])
  }

  @Test func sectionIDsAndDaysAreStable() throws {
    let zone = "Asia/Kolkata"
    let now = wall(zone, 2026, 3, 10, 12)
    let list = messages([wall(zone, 2026, 3, 9, 8), wall(zone, 2026, 3, 10, 8)])
    let sections = ChatDaySection.sections(
      for: list, now: now, calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: zone) ?? .gmt,
      locale: Locale(identifier: "en_US"))
    #expect(sections.map(\.id) == [list[0].id, list[1].id])
    #expect(sections.map(\.day) == [wall(zone, 2026, 3, 9, 0), wall(zone, 2026, 3, 10, 0)])
  }
}
