import Foundation
import Testing

@testable import ChatEngine

/// Issue 13: thread files lose nothing (unknown fields, duplicate ids), name the place of every
/// syntax error, are written by the rules of every output file, and dates have one calendar.
@Suite struct ArchiveFieldsTests {
  static func message(_ id: Int, extra: String = "", date: String = "2025-06-01T10:00:00Z") -> String {
    """
    {"id": "00000000-0000-4000-8000-\(String(format: "%012d", id))", "role": "user", "text": "m\(id)",
    "date": "\(date)", "state": "complete"\(extra)}
    """
  }

  static func decode(_ json: String) -> ChatArchiveError? {
    do {
      _ = try ChatArchive.decodeDocument(Data(json.utf8))
      return nil
    } catch {
      return error
    }
  }

  @Test func unknownFieldsSurviveALoadSaveRoundTrip() throws {
    let json = """
      {"model": {"name": "m", "t": [1, 2.50, 1e400, 12345678901234567890]}, "version": 3,
       "messages": [\(Self.message(1, extra: ", \"tokens\": 12, \"meta\": {\"x\": null, \"y\": [true]}"))]}
      """
    let document = try ChatArchive.decodeDocument(Data(json.utf8))
    #expect(document.fields.names == ["model", "version"])
    #expect(document.messages[0].archiveFields.names == ["meta", "tokens"])
    let again = try ChatArchive.decodeDocument(ChatArchive.encode(document, timeZone: .gmt))
    #expect(again == document)
    #expect(again.fields["model"]?.contains("12345678901234567890") == true)
    #expect(again.fields["model"]?.contains("1e400") == true)
  }

  /// An `error` on a message that did not fail is another tool's field: kept as written. On a
  /// failed message it is the reason, written once.
  @Test func anErrorFieldOnAMessageThatDidNotFailIsKept() throws {
    let json = #"{"messages": [\#(Self.message(1, extra: #", "error": {"code": 7}"#))]}"#
    let document = try ChatArchive.decodeDocument(Data(json.utf8))
    #expect(document.messages[0].state == .complete)
    let saved = ChatArchive.encode(document, timeZone: .gmt)
    let object = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
    let message = try #require((object["messages"] as? [[String: Any]])?.first)
    #expect((message["error"] as? [String: Any])?["code"] as? Int == 7)
    var failed = document
    failed.messages[0].state = .failed("boom")
    let again = String(decoding: ChatArchive.encode(failed, timeZone: .gmt), as: UTF8.self)
    #expect(again.components(separatedBy: "\"error\"").count == 2, "\(again)")
    #expect(again.contains("boom"))
  }

  @Test func randomizedThreadsWithExtraFieldsLoseNothing() throws {
    var random = SplitMix64(seed: 13)
    func value(_ depth: Int) -> String {
      switch Int.random(in: 0..<(depth > 2 ? 4 : 6), using: &random) {
      case 0: return "null"
      case 1: return Bool.random(using: &random) ? "true" : "false"
      case 2: return "\(Int.random(in: -1_000_000...1_000_000, using: &random))"
      case 3: return "\"s\\u00e9\\n\\\"\(Int.random(in: 0...99, using: &random))\""
      case 4:
        return "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth + 1) }.joined(separator: ",")
          + "]"
      default:
        return "{"
          + (0..<Int.random(in: 0...3, using: &random)).map { "\"k\($0)\": \(value(depth + 1))" }
          .joined(separator: ",") + "}"
      }
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-fields-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for round in 0..<50 {
      let count = Int.random(in: 0...6, using: &random)
      let messages = (0..<count).map { index in
        let extras = (0..<Int.random(in: 0...3, using: &random)).map { ", \"x\($0)\": \(value(0))" }.joined()
        return Self.message(index + 1, extra: extras)
      }
      let top = (0..<Int.random(in: 0...3, using: &random)).map { "\"top\($0)\": \(value(0)), " }.joined()
      let json = "{\(top)\"messages\": [\(messages.joined(separator: ","))]}"
      let first = try ChatArchive.decodeDocument(Data(json.utf8))
      let url = directory.appendingPathComponent("thread-\(round).json")
      try ChatArchive.save(first, to: url)
      let second = try ChatArchive.loadDocument(from: url)
      #expect(second == first, "round \(round): \(json)")
      try ChatArchive.save(second, to: url)
      #expect(try ChatArchive.loadDocument(from: url) == first)
    }
  }

  @Test(arguments: [
    (
      "{\"messages\": [\(message(1)), \(message(1))]}",
      "messages[1].id: the same id as messages[0] (00000000-0000-4000-8000-000000000001); every message needs its own id"
    ),
    (
      "{\"messages\": [], \"messages\": []}",
      "messages: not valid JSON: duplicate key \"messages\" at line 1, column 18"
    ),
    ("{\"messages\": []} x", "not valid JSON: unexpected text after the end of the JSON value at line 1, column 18"),
    (
      "{\"messages\": [\n  {\"id\": \"abc",
      "messages[0].id: not valid JSON: unterminated string (it starts here) at line 2, column 10"
    ),
    (
      "{\"messages\": [{\"id\": \"\\ud800\"}]}",
      "messages[0].id: not valid JSON: lone surrogate \\uD800 at line 1, column 23"
    ),
    (
      String(repeating: "[", count: 100_000),
      "\(String(repeating: "[0]", count: 512)): not valid JSON: arrays and objects nested more than 512 deep at line 1, column 513"
    ),
    (
      "{\"messages\": [\(message(1, date: "0000-01-01T00:00:00Z"))]}",
      "messages[0].date: year 0000 is outside the supported range 0001–9999"
    ),
    (
      "{\"messages\": [\(message(1, date: "10000-01-01T00:00:00Z"))]}",
      "messages[0].date: year 10000 is outside the supported range 0001–9999"
    ),
    (
      "{\"messages\": [\(message(1, date: "0001-01-01T00:00:00+14:00"))]}",
      "messages[0].date: the date is in year 0000 in UTC, outside the supported range 0001–9999"
    ),
    (
      "{\"messages\": [\(message(1, date: "9999-12-31T23:59:59-14:00"))]}",
      "messages[0].date: the date is in year 10000 in UTC, outside the supported range 0001–9999"
    ),
  ])
  func errorsNameThePlace(json: String, description: String) {
    #expect(Self.decode(json)?.errorDescription == description)
  }

  @Test func newThreadFilesArePrivateAndExistingModesAreKept() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-mode-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let messages = ChatMessage.sample(at: Date(timeIntervalSince1970: 1_750_000_000))
    let url = directory.appendingPathComponent("thread.json")
    try ChatArchive.save(messages, to: url)
    func mode(_ path: String) throws -> Int {
      (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }
    #expect(try mode(url.path) == 0o600)
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
    try ChatArchive.save(messages, to: url)
    #expect(try mode(url.path) == 0o640)
    // Through a symbolic link: the target is written, the link stays.
    let link = directory.appendingPathComponent("link.json")
    try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "thread.json")
    try ChatArchive.save(Array(messages.prefix(1)), to: link)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "thread.json")
    #expect(try ChatArchive.load(from: url).count == 1)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["link.json", "thread.json"])
  }
}
