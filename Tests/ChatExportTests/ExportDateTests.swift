import ChatExport
import Foundation
import Testing

@testable import ChatEngine

/// Dates in the exports: one proleptic Gregorian calendar for every year, as in thread files.
@Suite struct ExportDateTests {
  @Test func datesUseOneCalendarAndFutureDaysStayApart() throws {
    let locale = Locale(identifier: "en_US")
    let date = _InternetDate.parse("1500-03-01T12:00:00Z") ?? Date()
    let old = ChatMessage(role: .user, text: "old", date: date)
    #expect(_InternetDate.dayText(date, timeZone: .gmt) == "1500-03-01")
    #expect(ThreadExport.markdown([old], timeZone: .gmt, locale: locale).contains("March 1, 1500"))
    let page = ThreadPage(messages: [old], title: nil, timeZone: .gmt, locale: locale).render()
    #expect(page.contains("datetime=\"1500-03-01\""))
    let late = ChatMessage(role: .user, text: "late", date: _InternetDate.parse("4001-06-01T12:00:00Z") ?? Date())
    #expect(!ThreadExport.markdown([late], timeZone: .gmt, locale: locale).contains("Today"))
    let now = _InternetDate.parse("2026-03-10T12:00:00Z") ?? Date()
    let future = [
      ChatMessage(role: .user, text: "a", date: now.addingTimeInterval(86_400)),
      ChatMessage(role: .user, text: "b", date: now.addingTimeInterval(3 * 86_400)),
    ]
    let transcript = ThreadExport.transcript(future, now: now, timeZone: .gmt, locale: locale)
    #expect(transcript.contains("March 11") && transcript.contains("March 13") && !transcript.contains("Today"))
  }

  /// A loaded date is in years 0001–9999 in UTC, but its day in another zone may not be
  /// (0001-01-01T05:00Z is December 31 of year 0 in Los Angeles; 9999-12-31T23:00Z is January 1,
  /// 10000 at +14:00): the page, the transcript and the markdown then print every date in UTC,
  /// never year 0 or 10000; other threads keep their zone.
  @Test(arguments: [
    ("0001-01-01T05:00:00Z", "America/Los_Angeles", "0001-01-01", "January 1, 1"),
    ("9999-12-31T23:00:00Z", "Pacific/Kiritimati", "9999-12-31", "December 31, 9999"),
  ])
  func datesAtTheEndsOfTheYearsNeverPrintYear0Or10000(date: String, zone: String, day: String, title: String) throws {
    let locale = Locale(identifier: "en_US")
    let timeZone = try #require(TimeZone(identifier: zone))
    let instant = try #require(_InternetDate.parse(date))
    let messages = [
      ChatMessage(role: .user, text: "q", date: instant), ChatMessage(role: .assistant, text: "a", date: instant),
    ]
    #expect(_InternetDate.civil(instant, timeZone: timeZone).year != Int(day.prefix(4)), "the zone's day is outside")
    #expect(_InternetDate.displayZone(for: messages.map(\.date), in: timeZone) == .gmt)
    let page = ThreadPage(messages: messages, timeZone: timeZone, locale: locale).render()
    #expect(page.contains("<h2 class=\"day\"><time datetime=\"\(day)\">\(title)</time></h2>"))
    #expect(page.contains("<time datetime=\"\(date.dropLast())"))
    let transcript = ThreadExport.transcript(messages, timeZone: timeZone, locale: locale)
    #expect(transcript.hasPrefix(title + "\n"), "\(transcript)")
    let markdown = ThreadExport.markdown(messages, timeZone: timeZone, locale: locale)
    #expect(markdown.hasPrefix("## \(title)\n"), "\(markdown)")
    for wrong in ["December 31, 0\n", "December 31, 0<", "January 1, 10000", "datetime=\"0000", "datetime=\"10000"] {
      #expect(!page.contains(wrong) && !transcript.contains(wrong) && !markdown.contains(wrong), "\(wrong)")
    }
    // A thread whose days are all in range keeps its zone.
    let ordinary = [
      ChatMessage(role: .user, text: "q", date: instant.addingTimeInterval(date.hasPrefix("0001") ? 86_400 : -86_400))
    ]
    #expect(_InternetDate.displayZone(for: ordinary.map(\.date), in: timeZone) == timeZone)
  }

  /// A thread built in code may be given any `Date`: a message keeps the nearest instant of the
  /// years 0001–9999 in UTC (1970 for NaN), and the page its export date so, so every export
  /// prints years in them.
  @Test func datesOutsideTheYearsGivenInCodeArePrintedInThem() throws {
    let locale = Locale(identifier: "en_US")
    let far = Date(timeIntervalSince1970: 1e15)
    var messages = [
      ChatMessage(role: .user, text: "q", date: Date(timeIntervalSince1970: -1e15)),
      ChatMessage(role: .assistant, text: "a", date: Date(timeIntervalSince1970: .nan)),
      ChatMessage(role: .user, text: "r", date: Date()),
    ]
    messages[2].date = far
    #expect(_InternetDate.format(messages[0].date, timeZone: .gmt) == "0001-01-01T00:00:00.000+00:00")
    #expect(messages[1].date == Date(timeIntervalSince1970: 0))
    #expect(_InternetDate.format(messages[2].date, timeZone: .gmt) == "9999-12-31T23:59:59.999+00:00")
    let page = ThreadPage(messages: messages, timeZone: .gmt, locale: locale, exportDate: far).render()
    let transcript = ThreadExport.transcript(messages, timeZone: .gmt, locale: locale)
    let markdown = ThreadExport.markdown(messages, timeZone: .gmt, locale: locale)
    for title in ["January 1, 1", "January 1, 1970", "December 31, 9999"] {
      #expect(page.contains(">\(title)</time>") && transcript.contains(title) && markdown.contains(title), "\(title)")
    }
    // Every machine-readable date on the page has a four-digit year from 0001 to 9999.
    let years = page.components(separatedBy: "datetime=\"").dropFirst().map { $0.prefix { $0 != "-" } }
    #expect(years.count >= 7)
    #expect(years.allSatisfy { $0.count == 4 && (1...9999).contains(Int($0) ?? 0) }, "\(years)")
  }
}
