import Foundation

/// RFC 3339 dates (ISO 8601 with an offset) without Foundation formatters, which are slow to
/// create and not `Sendable`. Proleptic Gregorian calendar, years 0001–9999.
package enum _InternetDate {
  /// `2026-03-10T17:30:00.250+05:30`: milliseconds, and the offset `timeZone` has at `date`
  /// (`+00:00` for UTC, never `Z`), in whole minutes.
  ///
  /// Always a date ``parseChecked(_:)`` reads back, with a year in ``years``: a date whose local
  /// year falls outside is written in UTC, a date outside the years in UTC too as the nearest
  /// instant inside them, and a date that is not a number (NaN) as 1970-01-01T00:00:00Z.
  package static func format(_ date: Date, timeZone: TimeZone) -> String {
    let instant = Self.instants.clamped(to: date.timeIntervalSince1970)
    let local = text(instant, offset: timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: instant)))
    // Years past 9999 or before 0001 in local time (9999-12-31 in Tokyo): the same instant in UTC.
    guard let year = Int(local.prefix(4)), years.contains(year), local.utf8.count == 29 else {
      return text(instant, offset: 0)
    }
    return local
  }

  /// `date` when it is one of ``instants``, else the nearest of them (1970-01-01T00:00:00Z for a
  /// date that is not a number).
  package static func printable(_ date: Date) -> Date {
    let instant = date.timeIntervalSince1970
    guard !instant.isNaN else { return Date(timeIntervalSince1970: 0) }
    return instants.contains(instant) ? date : Date(timeIntervalSince1970: instants.clamped(to: instant))
  }

  /// ``printable(_:)`` to the millisecond, as thread files hold dates: a date kept so is read back
  /// from a file as the same `Date` (`==`).
  package static func kept(_ date: Date) -> Date {
    let instant = printable(date).timeIntervalSince1970
    return Date(timeIntervalSince1970: (instant * 1000).rounded() / 1000)
  }

  /// The instants whose UTC date has a year in ``years``: 0001-01-01T00:00:00.000Z to
  /// 9999-12-31T23:59:59.999Z, in seconds since 1970.
  static let instants = -62_135_596_800.0...253_402_300_799.999

  private static func text(_ instant: Double, offset rawOffset: Int) -> String {
    // RFC 3339 offsets have whole minutes; old local mean times (Berlin 1890: +00:53:28) are cut
    // to the minute, and the local time is shown in that offset, so the instant is kept.
    let offset = rawOffset / 60 * 60
    let totalMilliseconds = Int64((instant * 1000).rounded()) + Int64(offset) * 1000
    let milliseconds = Int(totalMilliseconds - floorDiv(totalMilliseconds, 1000) * 1000)
    let seconds = floorDiv(totalMilliseconds, 1000)
    let days = floorDiv(seconds, 86_400)
    let secondOfDay = Int(seconds - days * 86_400)
    let (year, month, day) = civil(fromDays: days)
    let sign = offset < 0 ? "-" : "+"
    let absolute = abs(offset)
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
      + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(milliseconds, 3))"
      + "\(sign)\(pad(absolute / 3600, 2)):\(pad(absolute / 60 % 60, 2))"
  }

  /// The proleptic Gregorian year, month and day of `date` in `timeZone`.
  static func civil(_ date: Date, timeZone: TimeZone) -> (year: Int, month: Int, day: Int) {
    let offset = Int64(timeZone.secondsFromGMT(for: date))
    let seconds = Int64(date.timeIntervalSince1970.rounded(.down)) + offset
    let (year, month, day) = civil(fromDays: floorDiv(seconds, 86_400))
    return (year, month, day)
  }

  /// `timeZone`, or UTC when one of `dates` falls on a day of a year outside ``years`` there
  /// (0001-01-01T05:00:00Z is still December 31 of year 0 at -08:00; 9999-12-31T23:00:00Z is
  /// already January 1, 10000 at +14:00): the zone in which a document prints every one of
  /// `dates` (whose UTC years are in ``years``, as every loaded date's is) with a year in
  /// ``years``, as ``format(_:timeZone:)`` falls back to UTC for one date.
  ///
  /// - Complexity: O(n) comparisons; only dates within two days of the ends of ``instants`` ask
  ///   `timeZone` for its offset.
  package static func displayZone(for dates: some Sequence<Date>, in timeZone: TimeZone) -> TimeZone {
    let margin = 2 * 86_400.0
    for date in dates {
      let instant = date.timeIntervalSince1970
      guard instant < instants.lowerBound + margin || instant > instants.upperBound - margin else { continue }
      if !years.contains(civil(date, timeZone: timeZone).year) { return .gmt }
    }
    return timeZone
  }

  /// `YYYY-MM-DD` of `date` in `timeZone`, proleptic Gregorian (an HTML `datetime` value).
  package static func dayText(_ date: Date, timeZone: TimeZone) -> String {
    let (year, month, day) = civil(date, timeZone: timeZone)
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
  }

  /// Why a date did not parse, in words for an error message.
  struct Problem: Error, Hashable {
    var message: String
  }

  /// The years a thread file may hold (four digits, proleptic Gregorian).
  static let years = 1...9999

  /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `t`/`z` and a space for `T` are accepted.
  static func parse(_ text: String) -> Date? {
    try? parseChecked(text).get()
  }

  /// Parses like ``parse(_:)``, saying what is wrong: not the shape, or a year outside ``years``,
  /// as written or in UTC (`0001-01-01T00:00:00+14:00` is a moment of year 0000 in UTC, which
  /// would show as year 0 wherever it is printed in UTC or west of +14:00).
  ///
  /// Every date it accepts has a UTC year in ``years``, so ``format(_:timeZone:)`` writes it back
  /// as the same instant.
  static func parseChecked(_ text: String) -> Result<Date, Problem> {
    guard let date = parseShape(text) else {
      // Five digits or more before the first `-` is a year past 9999, not a shape to explain.
      let digits = text.prefix { $0.isASCII && $0.isNumber }
      if digits.count > 4 && text.dropFirst(digits.count).first == "-" {
        return .failure(Problem(message: "year \(digits) is outside the supported range 0001–9999"))
      }
      return .failure(Problem(message: "expected an ISO 8601 date with offset"))
    }
    let year = text.prefix(4)
    if let number = Int(year), !years.contains(number) {
      return .failure(Problem(message: "year \(year) is outside the supported range 0001–9999"))
    }
    let (utcYear, _, _) = civil(fromDays: floorDiv(Int64(date.timeIntervalSince1970.rounded(.down)), 86_400))
    guard years.contains(utcYear) else {
      return .failure(
        Problem(message: "the date is in year \(pad(utcYear, 4)) in UTC, outside the supported range 0001–9999"))
    }
    return .success(date)
  }

  private static func parseShape(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    var position = 0
    func number(_ width: Int) -> Int? {
      guard position + width <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[position..<(position + width)] {
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      position += width
      return value
    }
    func expect(_ allowed: String) -> Bool {
      guard position < bytes.count, allowed.utf8.contains(bytes[position]) else { return false }
      position += 1
      return true
    }
    guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
      expect("Tt "), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
      let second = number(2)
    else { return nil }
    // Milliseconds, the digits past them cut off, not rounded: `23:59:59.9999` stays in its
    // second (and its day and year), as written; rounding moved it to the next year at the end of
    // one (a trial), and thread files keep milliseconds anyway.
    var milliseconds = 0
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      let start = position
      while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
        if position - start < 3 { milliseconds = milliseconds * 10 + Int(bytes[position] - 0x30) }
        position += 1
      }
      guard position > start else { return nil }
      for _ in min(position - start, 3)..<3 { milliseconds *= 10 }
    }
    let fraction = Double(milliseconds) / 1000
    var offset = 0
    if expect("Zz") {
      offset = 0
    } else {
      guard position < bytes.count else { return nil }
      let negative = bytes[position] == UInt8(ascii: "-")
      guard expect("+-"), let offsetHours = number(2), expect(":"), let offsetMinutes = number(2),
        offsetHours < 24, offsetMinutes < 60
      else { return nil }
      offset = (offsetHours * 3600 + offsetMinutes * 60) * (negative ? -1 : 1)
    }
    guard position == bytes.count, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
      hour < 24, minute < 60, second < 61
    else { return nil }
    let days = days(fromCivil: year, month, day)
    let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }

  private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    a >= 0 ? a / b : -((-a + b - 1) / b)
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a civil date (H. Hinnant's algorithm).
  private static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let m = Int64(month)
    let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The civil date of a day count since 1970-01-01 (H. Hinnant's algorithm).
  private static func civil(fromDays count: Int64) -> (Int, Int, Int) {
    let z = count + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (Int(year), Int(month), Int(day))
  }
}

extension ClosedRange<Double> {
  /// `value` moved into the range; NaN becomes 0 when the range holds it.
  fileprivate func clamped(to value: Double) -> Double {
    guard !value.isNaN else { return contains(0) ? 0 : lowerBound }
    return Swift.min(Swift.max(value, lowerBound), upperBound)
  }
}
