import ChatEngine
import Foundation
import Testing

private func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("chatengine-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

private func decodeError(_ json: String) -> ChatArchiveError? {
  do {
    _ = try ChatArchive.decode(Data(json.utf8))
    return nil
  } catch {
    return error
  }
}

private let validMessage = """
  {"id": "00000000-0000-4000-8000-000000000001", "role": "user", "text": "Hi",
   "date": "2026-03-10T13:00:00+01:00", "state": "complete", "feedback": null}
  """

@Suite("Persistence")
struct ArchiveTests {
  @Test func encodesExactlyTheDocumentedShape() throws {
    let messages = [
      ChatMessage(id: testID(1), role: .user, text: "Hi \"there\"", date: referenceDate),
      ChatMessage(
        id: testID(2), role: .assistant, text: "Oops", date: referenceDate.addingTimeInterval(0.25),
        state: .failed("Offline."), feedback: nil),
      ChatMessage(id: testID(3), role: .assistant, text: "ok", date: referenceDate, state: .stopped, feedback: .good),
    ]
    let data = ChatArchive.encode(messages, timeZone: TimeZone(identifier: "Asia/Kolkata") ?? .gmt)
    let json = String(decoding: data, as: UTF8.self)
    #expect(
      json == """
        {
          "messages" : [
            {
              "date" : "2026-03-10T17:30:00.000+05:30",
              "feedback" : null,
              "id" : "00000000-0000-4000-8000-000000000001",
              "role" : "user",
              "state" : "complete",
              "text" : "Hi \\"there\\""
            },
            {
              "date" : "2026-03-10T17:30:00.250+05:30",
              "error" : "Offline.",
              "feedback" : null,
              "id" : "00000000-0000-4000-8000-000000000002",
              "role" : "assistant",
              "state" : "failed",
              "text" : "Oops"
            },
            {
              "date" : "2026-03-10T17:30:00.000+05:30",
              "feedback" : "good",
              "id" : "00000000-0000-4000-8000-000000000003",
              "role" : "assistant",
              "state" : "stopped",
              "text" : "ok"
            }
          ]
        }
        """)
    #expect(try ChatArchive.decode(data) == messages)
    let utc = String(decoding: ChatArchive.encode([messages[0]], timeZone: .gmt), as: UTF8.self)
    #expect(utc.contains("\"2026-03-10T12:00:00.000+00:00\""))
  }

  @Test func datesRoundTripInEveryZoneAndAgreeWithFoundation() throws {
    var random = SplitMix64(seed: 42)
    let zones = ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Kolkata", "Europe/Berlin", "America/St_Johns"]
    let reference = ISO8601DateFormatter()
    reference.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    for index in 0..<500 {
      // Whole milliseconds between 1901 and 2100.
      let milliseconds = Int64(random.next() % 6_311_390_400_000) - 2_177_452_800_000
      let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
      let zone = TimeZone(identifier: zones[index % zones.count]) ?? .gmt
      let message = ChatMessage(id: testID(index + 1), role: .user, text: "", date: date)
      let data = ChatArchive.encode([message], timeZone: zone)
      let decoded = try ChatArchive.decode(data)
      #expect(abs((decoded.first?.date ?? .distantPast).timeIntervalSince(date)) < 0.000_5)
      let object = try JSONSerialization.jsonObject(with: data) as? [String: [[String: Any]]]
      let text = object?["messages"]?.first?["date"] as? String ?? ""
      let parsed = reference.date(from: text) ?? .distantPast
      #expect(abs(parsed.timeIntervalSince(date)) < 0.000_5, "\(text)")
      let offset = zone.secondsFromGMT(for: date) / 60 * 60
      #expect(
        text.hasSuffix(String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) / 60 % 60))
      )
    }
    #expect(throws: ChatArchiveError.self) {
      try ChatArchive.decode(
        Data(
          #"{"messages":[{"id":"00000000-0000-4000-8000-000000000001","role":"user","text":"","date":"2026-02-30T00:00:00Z","state":"complete"}]}"#
            .utf8))
    }
  }

  /// A thread file is always readable again: dates outside the years 0001–9999 of the file are
  /// written as the nearest date inside (in UTC when only the local year is outside), never as a
  /// year the reader refuses, which lost every message (a library trial, 2026-12-03).
  @Test func everyDateWrittenReadsBack() throws {
    let tokyo = TimeZone(identifier: "Asia/Tokyo") ?? .gmt
    let cases: [(Date, TimeZone, String)] = [
      (.distantPast, .gmt, "0001-01-01T00:00:00.000+00:00"),
      (Date(timeIntervalSince1970: 3e11), .gmt, "9999-12-31T23:59:59.999+00:00"),
      (Date(timeIntervalSince1970: 253_402_300_799), tokyo, "9999-12-31T23:59:59.000+00:00"),
      (Date(timeIntervalSince1970: 1e17), tokyo, "9999-12-31T23:59:59.999+00:00"),
      (Date(timeIntervalSince1970: .nan), tokyo, "1970-01-01T09:00:00.000+09:00"),
      (Date(timeIntervalSince1970: -.infinity), .gmt, "0001-01-01T00:00:00.000+00:00"),
    ]
    for (index, (date, zone, expected)) in cases.enumerated() {
      let message = ChatMessage(id: testID(index + 1), role: .user, text: "kept", date: date)
      let data = ChatArchive.encode([message], timeZone: zone)
      #expect(String(decoding: data, as: UTF8.self).contains("\"\(expected)\""), "\(date)")
      #expect(try ChatArchive.decode(data).first?.text == "kept")
    }
  }

  /// Fractions of a second were rounded: `9999-12-31T23:59:59.9999999Z` was refused as year 10000
  /// in UTC, and `2026-12-31T23:59:59.9999Z` was filed under 2027 and saved back so (a trial).
  /// The digits past the milliseconds are cut off.
  @Test(arguments: [
    ("9999-12-31T23:59:59.9999999Z", "9999-12-31T23:59:59.999+00:00"),
    ("2026-12-31T23:59:59.9999Z", "2026-12-31T23:59:59.999+00:00"),
    ("2026-12-31T23:59:59.9996+01:00", "2026-12-31T22:59:59.999+00:00"),
    ("2026-03-10T10:00:00.5Z", "2026-03-10T10:00:00.500+00:00"),
    ("2026-03-10T10:00:00.12Z", "2026-03-10T10:00:00.120+00:00"),
    ("2026-03-10T10:00:00.00000000000000000001Z", "2026-03-10T10:00:00.000+00:00"),
  ])
  func fractionsOfASecondAreCutToTheMillisecond(written: String, saved: String) throws {
    let data = Data(
      #"{"messages":[{"id":"00000000-0000-4000-8000-000000000001","role":"user","text":"","date":"\#(written)","state":"complete"}]}"#
        .utf8)
    let messages = try ChatArchive.decode(data)
    let again = String(decoding: ChatArchive.encode(messages, timeZone: .gmt), as: UTF8.self)
    #expect(again.contains("\"\(saved)\""), "\(again)")
  }

  @Test func loadingNormalises() throws {
    let json = """
      {"messages": [
        {"id": "00000000-0000-4000-8000-000000000001", "role": "user", "text": "Q",
         "date": "2026-03-10T12:00:00Z", "state": "failed", "error": "x", "feedback": "good"},
        {"id": "00000000-0000-4000-8000-000000000002", "role": "assistant", "text": "half",
         "date": "2026-03-10T12:00:01.5-11:00", "state": "streaming", "feedback": null},
        {"id": "00000000-0000-4000-8000-000000000003", "role": "assistant", "text": "",
         "date": "2026-03-10T12:00:03Z", "state": "failed"}
      ]}
      """
    let messages = try ChatArchive.decode(Data(json.utf8))
    #expect(messages.map(\.id) == [testID(1), testID(2), testID(3)])
    #expect(messages[0].state == .complete)
    #expect(messages[0].feedback == nil)
    #expect(messages[1].state == .failed("The reply didn't finish. Try again."))
    #expect(messages[1].date == referenceDate.addingTimeInterval(11 * 3600 + 1.5))
    #expect(messages[2].state == .failed(ChatMessage.defaultFailureMessage))
  }

  @Test(arguments: [
    ("[]", "expected an object"),
    ("{\"messages\": {}}", "messages: expected an array"),
    ("{}", "messages: missing"),
    ("{\"messages\": [", "messages[0]: not valid JSON: expected a value, but the file ends at line 1, column 15"),
    ("{\"messages\": [\(validMessage), {\"id\": 5}]}", "messages[1].id: expected a string"),
    ("{\"messages\": [\(validMessage), {\"id\": \"nope\"}]}", "messages[1].id: expected a UUID"),
    (
      "{\"messages\": [\(validMessage.replacingOccurrences(of: "\"user\"", with: "\"robot\""))]}",
      "messages[0].role: expected \"user\" or \"assistant\""
    ),
    (
      "{\"messages\": [\(validMessage.replacingOccurrences(of: "+01:00", with: ""))]}",
      "messages[0].date: expected an ISO 8601 date with offset"
    ),
    (
      "{\"messages\": [\(validMessage.replacingOccurrences(of: "\"complete\"", with: "\"done\""))]}",
      "messages[0].state: expected \"complete\", \"streaming\", \"stopped\" or \"failed\""
    ),
    (
      "{\"messages\": [\(validMessage.replacingOccurrences(of: "null", with: "\"meh\""))]}",
      "messages[0].feedback: expected \"good\", \"bad\" or null"
    ),
    (
      "{\"messages\": [\(validMessage.replacingOccurrences(of: "\"text\": \"Hi\",", with: ""))]}",
      "messages[0].text: missing"
    ),
  ])
  func malformedFilesNameThePlaceAndTheProblem(json: String, description: String) {
    #expect(decodeError(json)?.errorDescription == description)
  }

  @Test func saveIsAtomicAndLoadRoundTrips() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("thread.json")
    let first = ChatMessage.sample(at: referenceDate)
    try ChatArchive.save(first, to: url)
    #expect(try ChatArchive.load(from: url) == first)
    try ChatArchive.save(Array(first.prefix(1)), to: url)
    #expect(try ChatArchive.load(from: url) == Array(first.prefix(1)))
    // Only the target file remains: the temporary file was renamed over it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["thread.json"])
    // A failed save (missing directory) leaves nothing behind and throws.
    let missing = directory.appendingPathComponent("none/thread.json")
    #expect(throws: ChatArchiveError.self) { try ChatArchive.save(first, to: missing) }
    #expect(throws: ChatArchiveError.self) { try ChatArchive.load(from: missing) }
  }

  @MainActor
  @Test func aMalformedFileChangesNothingInTheThread() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("bad.json")
    try Data("{\"messages\": [{\"id\": 1}]}".utf8).write(to: url)
    let h = Harness(messages: ChatMessage.sample(at: referenceDate))
    let before = h.thread.messages
    #expect(throws: ChatArchiveError.invalid(path: "messages[0].id", problem: "expected a string")) {
      try h.thread.load(from: url)
    }
    #expect(h.thread.messages == before)
  }

  @MainActor
  @Test func aThreadSavedWhileStreamingLoadsAsFailedWithRetry() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("thread.json")
    let h = Harness(publishInterval: 0)
    try h.thread.send("Q")
    h.source.yield("half")
    #expect(await until { h.last?.text == "half" })
    try h.thread.save(to: url)
    let other = Harness()
    try other.thread.load(from: url)
    #expect(other.thread.messages.map(\.text) == ["Q", "half"])
    #expect(other.last?.state == .failed(ChatMessage.defaultFailureMessage))
    #expect(other.thread.turn(at: 1).canRetry)
    #expect(other.source.calls.isEmpty)
  }
}

/// Dates are kept to the millisecond, as files hold them, so a tree saved and loaded back is `==`
/// to itself, whatever clock made its dates.
@Suite struct ArchiveDatePrecisionTests {
  @Test func aTreeWithSubMillisecondDatesLoadsBackEqual() throws {
    let base = Date().timeIntervalSince1970
    var messages: [ChatMessage] = []
    for index in 0..<200 {
      let date = Date(timeIntervalSince1970: base + Double(index) * 0.000_123_456_7)
      messages.append(ChatMessage(role: index % 2 == 0 ? .user : .assistant, text: "m\(index)", date: date))
    }
    let tree = ChatThreadTree(messages: messages)
    let data = ChatArchive.encode(ChatArchive.Document(tree: tree), timeZone: .gmt)
    #expect(try ChatArchive.decodeDocument(data).tree == tree)
    let day = try #require(TimeZone(identifier: "Asia/Kolkata"))
    let shifted = ChatArchive.encode(ChatArchive.Document(tree: tree), timeZone: day)
    #expect(try ChatArchive.decodeDocument(shifted).tree == tree)
  }
}

/// Loading a place that is not a thread file says what it is, never blocks and never reads past
/// the limit.
@Suite struct ArchiveLoadPlaceTests {
  private func message(_ path: String, maxBytes: Int = ChatArchive.defaultMaxBytes) -> String {
    do {
      _ = try ChatArchive.loadDocument(from: URL(fileURLWithPath: path), maxBytes: maxBytes)
      return "loaded"
    } catch {
      return error.errorDescription ?? ""
    }
  }

  @Test func placesThatAreNotThreadFilesSayWhatTheyAre() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("load-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(message(folder.path) == "The thread could not be read: '\(folder.path)' is a directory, not a thread file")
    let fifo = folder.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(message(fifo).hasSuffix("is not a regular file (a FIFO, device or socket)"))
    #expect(message("/dev/zero").hasSuffix("is not a regular file (a FIFO, device or socket)"))
    let loop = folder.appendingPathComponent("loop").path
    #expect(symlink(loop, loop) == 0)
    #expect(message(loop) == "The thread could not be read: '\(loop)': Too many levels of symbolic links")
    let missing = folder.appendingPathComponent("missing.json").path
    #expect(message(missing) == "The thread could not be read: '\(missing)': No such file or directory")
    let big = folder.appendingPathComponent("big.json")
    try Data(#"{"messages": []}"#.utf8).write(to: big)
    #expect(
      message(big.path, maxBytes: 10)
        == "The thread could not be read: '\(big.path)' is 16 bytes; the most a thread file may have is 10")
    #expect(message(big.path) == "loaded")
  }
}

/// Long strings with many escapes load in time linear in their size: each escape copied the
/// string so far (a trial: a 1.4 MB reply saved by the chat, a `\n` or `\"` every 84 bytes, took
/// 10 s to load; 22 MB did not load in 10 minutes). The limit is a guard against that hang, not a
/// measure of speed.
@Suite(.timeLimit(.minutes(2)))
struct ArchiveLongStringTests {
  @Test func aLongReplyFullOfEscapesLoadsWhole() throws {
    let line = "A line of a long reply with \"quotes\" and a tab\there, then a break"
    let text = Array(repeating: line, count: 120_000).joined(separator: "\n") + " é 😀"
    let messages = [
      ChatMessage(role: .user, text: "Hi", date: Date(timeIntervalSince1970: 1_700_000_000)),
      ChatMessage(role: .assistant, text: text, date: Date(timeIntervalSince1970: 1_700_000_001)),
    ]
    let data = ChatArchive.encode(messages)
    #expect(data.count > 8_000_000)
    let loaded = try ChatArchive.decode(data)
    #expect(loaded.count == 2)
    #expect(loaded.last?.text == text)
  }
}
