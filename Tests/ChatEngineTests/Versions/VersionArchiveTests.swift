import ChatEngine
import Foundation
import Testing

private func message(_ number: Int, _ role: ChatMessage.Role, _ text: String, state: ChatMessage.State = .complete)
  -> ChatMessage
{
  ChatMessage(id: testID(number), role: role, text: text, date: referenceDate, state: state)
}

private func decodeError(_ json: String) -> String? {
  do {
    _ = try ChatArchive.decodeDocument(Data(json.utf8))
    return nil
  } catch {
    return error.errorDescription
  }
}

private func json(_ number: Int, _ role: String, _ text: String, state: String = "complete") -> String {
  """
  {"id": "\(testID(number).uuidString)", "role": "\(role)", "text": "\(text)", \
  "date": "2026-03-10T12:00:00Z", "state": "\(state)"}
  """
}

@MainActor
@Suite("Persistence of versions")
struct VersionArchiveTests {
  /// Q1 → A1 → Q2 → A2 with A2 regenerated twice (version 2 of 3 shows) and Q1 edited (the edit
  /// shows), made through the engine.
  static func branchedThread() async throws -> Harness {
    let h = Harness()
    try h.thread.send("Q1")
    h.source.yield("A1")
    h.source.finish()
    _ = await until { h.last?.state == .complete }
    try h.thread.send("Q2")
    for text in ["A2", "A2 b", "A2 c"] {
      if text != "A2" { try h.thread.regenerate(try #require(h.last?.id)) }
      h.source.yield(text)
      h.source.finish()
      _ = await until { h.last?.state == .complete && h.last?.text == text }
    }
    try h.thread.showVersion(2, of: try #require(h.last?.id))
    try h.thread.edit(h.thread.messages[0].id, text: "Q1 edited")
    h.source.yield("B1")
    h.source.finish()
    _ = await until { h.last?.state == .complete }
    return h
  }

  @Test func aThreadWithVersionsRoundTripsWithoutLoss() async throws {
    let h = try await Self.branchedThread()
    let tree = h.thread.tree
    #expect(tree.hasVersions && tree.messageCount == 8 && tree.brokenRule == nil)
    let document = ChatArchive.Document(tree: tree)
    let data = ChatArchive.encode(document, timeZone: .gmt)
    let loaded = try ChatArchive.decodeDocument(data)
    #expect(loaded.tree == tree)
    #expect(ChatArchive.encode(loaded, timeZone: .gmt) == data)
    // Loaded into a thread, the old branch comes back as it was left: version 2 of 3.
    let other = Harness()
    other.thread.replaceThread(with: loaded.tree)
    try other.thread.showVersion(1, of: other.thread.messages[0].id)
    #expect(other.thread.messages.map(\.text) == ["Q1", "A1", "Q2", "A2 b"])
    #expect(other.thread.versions(at: 3)?.text == "Version 2 of 3")
    // A reader that knows nothing of versions reads `messages`: the shown path.
    #expect(try ChatArchive.decode(data).map(\.text) == ["Q1 edited", "B1"])
  }

  @Test func savedThroughTheThreadAndLoadedBack() async throws {
    let h = try await Self.branchedThread()
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("versions-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try h.thread.save(to: url)
    let other = Harness()
    try other.thread.load(from: url)
    #expect(other.thread.tree == h.thread.tree)
  }

  @Test func theShapeOfVersions() throws {
    var tree = ChatThreadTree(messages: [message(1, .user, "Q"), message(2, .assistant, "A")])
    #expect(!tree.hasVersions)
    // A file without versions is written exactly as before: no `versions` key.
    #expect(!String(decoding: ChatArchive.encode(ChatArchive.Document(tree: tree)), as: UTF8.self).contains("versions"))
    let file = """
      {"messages": [\(json(1, "user", "Q")), \(json(3, "assistant", "A2"))],
       "versions": [{"parent": "\(testID(1).uuidString)", "version": 1, "messages": [\(json(2, "assistant", "A"))]}]}
      """
    tree = try ChatArchive.decodeDocument(Data(file.utf8)).tree
    #expect(tree.messages.map(\.text) == ["Q", "A2"])
    #expect(tree.versions(at: 1) == ChatVersions(ids: [testID(2), testID(3)], shownIndex: 1))
    let written = String(decoding: ChatArchive.encode(ChatArchive.Document(tree: tree), timeZone: .gmt), as: UTF8.self)
    #expect(
      written.hasSuffix(
        """
          "versions" : [
            {
              "messages" : [
                {
                  "date" : "2026-03-10T12:00:00.000+00:00",
                  "feedback" : null,
                  "id" : "00000000-0000-4000-8000-000000000002",
                  "role" : "assistant",
                  "state" : "complete",
                  "text" : "A"
                }
              ],
              "parent" : "00000000-0000-4000-8000-000000000001",
              "version" : 1
            }
          ]
        }
        """))
    let changed = tree.showVersion(testID(2))
    #expect(changed)
    #expect(tree.messages.map(\.text) == ["Q", "A"])
  }

  @Test func anOldFormatFileLoadsAsBefore() throws {
    // Written by a build without versions: no `versions`, a streaming reply, an unknown field.
    let file = """
      {"model": "m", "messages": [\(json(1, "user", "Q")), \(json(2, "assistant", "A", state: "streaming"))]}
      """
    let document = try ChatArchive.decodeDocument(Data(file.utf8))
    #expect(!document.tree.hasVersions)
    #expect(document.messages.map(\.state) == [.complete, .failed(ChatMessage.defaultFailureMessage)])
    #expect(document.fields.names == ["model"])
  }

  @Test func loadingNormalisesEveryVersion() throws {
    let file = """
      {"messages": [\(json(1, "user", "Q")), \(json(3, "assistant", "A2"))],
       "versions": [{"parent": "\(testID(1).uuidString)", "version": 1,
                     "messages": [\(json(2, "assistant", "A", state: "streaming"))]}]}
      """
    let tree = try ChatArchive.decodeDocument(Data(file.utf8)).tree
    #expect(tree.message(testID(2))?.state == .failed(ChatMessage.defaultFailureMessage))
  }

  @Test func aVersionAfterTheLastTurnContinuesTheShownPath() throws {
    // The parent is the last message, so the entry is what shows after it.
    let file = """
      {"messages": [\(json(1, "user", "Q"))],
       "versions": [{"parent": "\(testID(1).uuidString)", "version": 1, "messages": [\(json(2, "assistant", "A"))]}]}
      """
    let tree = try ChatArchive.decodeDocument(Data(file.utf8)).tree
    #expect(tree.messages.map(\.text) == ["Q", "A"])
    #expect(!tree.hasVersions && tree.brokenRule == nil)
  }

  @Test(arguments: [
    (
      #"{"parent": "00000000-0000-4000-8000-0000000000ff", "version": 1, "messages": [M]}"#,
      "versions[0].parent: no message before this entry has the id 00000000-0000-4000-8000-0000000000ff"
    ),
    (#"{"parent": null, "version": 0, "messages": [M]}"#, "versions[0].version: expected a whole number from 1"),
    (
      #"{"parent": null, "version": 99999999999999999999, "messages": [M]}"#,
      "versions[0].version: expected a whole number from 1 to 9223372036854775807"
    ),
    (#"{"parent": null, "version": 1, "messages": []}"#, "versions[0].messages: empty"),
    (#"{"parent": null, "version": 1, "messages": [M], "colour": 1}"#, "versions[0].colour: not a field of a version"),
    (#"{"version": 1, "messages": [M]}"#, "versions[0].parent: missing"),
    (#"{"parent": null, "version": 1, "messages": [R]}"#, "versions[0].messages[0].role: a version of your turn"),
    (#"{"parent": null, "version": 1, "messages": [Q]}"#, "versions[0].messages[0].id: the same id as messages[0]"),
  ])
  func badVersionsAreErrorsNamingThePlace(entry: String, expected: String) throws {
    let entry = entry.replacingOccurrences(of: "[M]", with: "[\(json(5, "user", "Q other"))]")
      .replacingOccurrences(of: "[R]", with: "[\(json(5, "assistant", "R"))]")
      .replacingOccurrences(of: "[Q]", with: "[\(json(1, "user", "Q"))]")
    let file = #"{"messages": [\#(json(1, "user", "Q")), \#(json(2, "assistant", "A"))], "versions": [\#(entry)]}"#
    let problem = try #require(decodeError(file))
    #expect(problem.hasPrefix(expected), "\(problem)")
  }

  @Test func twoEntriesWithOneNumberAreAnError() throws {
    let entry = #"{"parent": null, "version": 1, "messages": [\#(json(5, "user", "x"))]}"#
    let second = #"{"parent": null, "version": 1, "messages": [\#(json(6, "user", "y"))]}"#
    let file = #"{"messages": [\#(json(1, "user", "Q"))], "versions": [\#(entry), \#(second)]}"#
    #expect(decodeError(file)?.hasPrefix("versions[1].version: version 1 of this turn is versions[0] already") == true)
  }
}
