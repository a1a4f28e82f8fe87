import ChatEngine
import Foundation
import Testing

/// Lets the latest reply finish with `text`.
@MainActor
private func answer(_ h: Harness, _ text: String) async {
  h.source.yield(text)
  h.source.finish()
  _ = await until { h.last?.state == .complete && h.last?.text == text }
}

/// Q1 → A1, Q2 → A2 (every turn finished).
@MainActor
private func twoExchanges(_ h: Harness) async throws {
  try h.thread.send("Q1")
  await answer(h, "A1")
  try h.thread.send("Q2")
  await answer(h, "A2")
}

@MainActor
@Suite("Versions")
struct VersionTests {
  @Test func regenerateKeepsTheOldReplyAsAnEarlierVersion() async throws {
    let h = Harness()
    try await twoExchanges(h)
    let old = try #require(h.last)
    try h.thread.regenerate(old.id)
    await answer(h, "A2 again")
    let new = try #require(h.last)
    #expect(h.thread.messages.map(\.text) == ["Q1", "A1", "Q2", "A2 again"])
    let versions = try #require(h.thread.versions(of: new.id))
    #expect(versions.ids == [old.id, new.id])
    #expect(versions.number == 2 && versions.count == 2 && versions.text == "Version 2 of 2")
    #expect(h.thread.turn(at: 3).versions == versions)
    #expect(h.thread.turn(at: 2).versions == nil)
    #expect(h.thread.version(old.id) == old)

    try h.thread.showVersion(old.id)
    #expect(h.thread.messages.map(\.text) == ["Q1", "A1", "Q2", "A2"])
    #expect(h.thread.versions(of: old.id)?.number == 1)
    #expect(h.recorder.announcements.last == .versionShown(number: 1, count: 2))
    #expect(ChatAnnouncement.versionShown(number: 1, count: 2).text == "Version 1 of 2")
    // The shown version is the latest reply: Regenerate adds a third.
    #expect(h.thread.canRegenerate(old.id))
    try h.thread.regenerate(old.id)
    await answer(h, "A2 third")
    #expect(h.thread.versions(at: 3)?.text == "Version 3 of 3")
    #expect(h.thread.tree.brokenRule == nil)
  }

  @Test func retryKeepsTheFailedReplyAndItsError() async throws {
    let h = Harness()
    try h.thread.send("Q")
    h.source.fail(TestFailure())
    #expect(await until { h.last?.state != .streaming })
    let failed = try #require(h.last?.id)
    try h.thread.retry(failed)
    await answer(h, "fine")
    #expect(h.thread.versions(at: 1)?.ids.first == failed)
    #expect(h.thread.failureError(for: failed) as? TestFailure == TestFailure())
    try h.thread.showVersion(1, of: try #require(h.last?.id))
    #expect(h.last?.state == .failed("The model is overloaded."))
    #expect(h.thread.turn(at: 1).canRetry)
  }

  @Test func editingAnEarlierTurnBranchesAndTheOldBranchComesBackAsItWas() async throws {
    let h = Harness()
    try await twoExchanges(h)
    // A second version of A2 on the old branch, then version 1 shown again: the branch remembers.
    try h.thread.regenerate(try #require(h.last?.id))
    await answer(h, "A2 second")
    try h.thread.showPreviousVersion(of: try #require(h.last?.id))
    #expect(h.last?.text == "A2")
    let q1 = h.thread.messages[0].id

    try h.thread.edit(q1, text: "Q1 edited")
    #expect(h.thread.messages.map(\.text) == ["Q1 edited", ""])
    #expect(h.last?.state == .streaming)
    #expect(h.source.last?.history.map(\.text) == ["Q1 edited"])
    await answer(h, "B1")
    let edited = h.thread.messages[0]
    #expect(edited.id != q1 && edited.role == .user)
    #expect(h.thread.versions(of: edited.id)?.ids == [q1, edited.id])
    #expect(h.thread.tree.messageCount == 7)

    try h.thread.showVersion(q1)
    #expect(h.thread.messages.map(\.text) == ["Q1", "A1", "Q2", "A2"])
    #expect(h.thread.versions(at: 3)?.text == "Version 1 of 2")
    try h.thread.showNextVersion(of: q1)
    #expect(h.thread.messages.map(\.text) == ["Q1 edited", "B1"])
    #expect(throws: ChatActionError.noSuchVersion(edited.id, number: 3, count: 2)) {
      try h.thread.showNextVersion(of: edited.id)
    }
    #expect(throws: ChatActionError.noSuchVersion(h.thread.messages[1].id, number: 2, count: 1)) {
      try h.thread.showVersion(2, of: h.thread.messages[1].id)
    }
    #expect(h.thread.tree.brokenRule == nil)
  }

  @Test func editIsRefusedForRepliesEmptyTextAndHiddenTurns() async throws {
    let h = Harness()
    try await twoExchanges(h)
    let reply = h.thread.messages[1].id
    #expect(throws: ChatActionError.notAUserTurn(reply)) { try h.thread.edit(reply, text: "x") }
    #expect(throws: ChatActionError.emptyMessage) { try h.thread.edit(h.thread.messages[0].id, text: " \n") }
    #expect(!h.thread.canEdit(reply) && h.thread.canEdit(h.thread.messages[2].id))
    let q2 = h.thread.messages[2].id
    try h.thread.edit(q2, text: "Q2 again")
    await answer(h, "C")
    #expect(throws: ChatActionError.notShown(q2)) { try h.thread.edit(q2, text: "x") }
    let unknown = UUID()
    #expect(throws: ChatActionError.noSuchMessage(unknown)) { try h.thread.edit(unknown, text: "x") }
    #expect(h.source.calls.count == 3)
  }

  @Test func switchingStopsAStreamingReplyAndItsStreamNeverWritesAgain() async throws {
    let h = Harness(publishInterval: 0)
    try await twoExchanges(h)
    let q2 = h.thread.messages[2].id
    try h.thread.edit(q2, text: "Q2 edited")
    h.source.yield("partial")
    #expect(await until { h.last?.text == "partial" })
    let streaming = try #require(h.last?.id)
    let stream = try #require(h.source.last)
    try h.thread.showVersion(q2)
    #expect(h.last?.text == "A2")
    #expect(!h.thread.isStreaming)
    #expect(await until { stream.terminated.isSet })
    stream.continuation.yield("STALE")
    stream.continuation.finish()
    await settle()
    #expect(h.thread.version(streaming)?.state == .stopped)
    #expect(h.thread.version(streaming)?.text == "partial")
    // Showing the version already shown changes nothing and announces nothing.
    let announced = h.recorder.announcements.count
    try h.thread.showVersion(q2)
    #expect(h.recorder.announcements.count == announced)
  }

  @Test func actionsActOnTheShownVersionAndALateRatingLandsOnItsVersion() async throws {
    let gate = Gate()
    let h = Harness(onFeedback: { _, _ in await gate.wait() })
    try await twoExchanges(h)
    let old = try #require(h.last?.id)
    let task = try h.thread.rate(old, .good)
    try h.thread.regenerate(old)
    await answer(h, "new")
    #expect(throws: ChatActionError.notShown(old)) { try h.thread.copy(old) }
    #expect(throws: ChatActionError.notShown(old)) { try h.thread.rate(old, .bad) }
    #expect(throws: ChatActionError.notShown(old)) { try h.thread.copyCode(in: old, block: 0) }
    #expect(h.thread.shareText(for: old) == nil)
    #expect(throws: ChatActionError.notShown(old)) { try h.thread.regenerate(old) }
    gate.open()
    await task.value
    #expect(h.thread.version(old)?.feedback == .good)
    try h.thread.copy(try #require(h.last?.id))
    #expect(h.recorder.copies.last?.markdown == "new")
  }

  @Test func accessibilityAndTheTranscriptSayWhichVersionShows() async throws {
    let h = Harness()
    try await twoExchanges(h)
    try h.thread.regenerate(try #require(h.last?.id))
    await answer(h, "A2 bis")
    let last = try #require(h.last?.id)
    let element = try #require(h.thread.accessibility(for: last))
    #expect(element.versions == "Version 2 of 2")
    #expect(element.spokenText == "Assistant. A2 bis. Version 2 of 2")
    #expect(h.thread.accessibility(for: h.thread.messages[0].id)?.versions == nil)
    #expect(h.thread.transcript.hasSuffix("You: Q2\n\nAssistant: A2 bis\nVersion 2 of 2"))
  }

  @Test func daySectionsAfterASwitchEqualSectionsFromScratch() async throws {
    let h = Harness()
    try h.thread.send("Day 1")
    await answer(h, "R1")
    h.clock.advance(by: 86_400)
    try h.thread.send("Day 2")
    await answer(h, "R2")
    h.clock.advance(by: 86_400 * 3)
    let first = h.thread.messages[0].id
    _ = h.thread.daySections
    try h.thread.edit(first, text: "Day 5")
    await answer(h, "R5")
    func fresh() -> [ChatDaySection] {
      var calendar = h.thread.environment.calendar
      calendar.timeZone = h.thread.environment.timeZone
      return ChatDaySection.sections(
        for: h.thread.messages, now: h.clock.now(), calendar: calendar, timeZone: h.thread.environment.timeZone,
        locale: h.thread.environment.locale)
    }
    #expect(h.thread.daySections == fresh())
    #expect(h.thread.daySections.count == 1)
    try h.thread.showVersion(first)
    #expect(h.thread.daySections == fresh())
    #expect(h.thread.daySections.count == 2)
  }
}

/// Holds `onFeedback` until the test opens it.
@MainActor
final class Gate {
  private var isOpen = false
  func wait() async {
    while !isOpen { await Task.yield() }
  }
  func open() { isOpen = true }
}
