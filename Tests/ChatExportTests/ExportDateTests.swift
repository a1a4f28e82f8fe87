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
}
