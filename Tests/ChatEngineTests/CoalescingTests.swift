import ChatEngine
import Foundation
import Testing

@MainActor
@Suite("Publishing is coalesced")
struct CoalescingTests {
  @Test func theFirstChunkPublishesAtOnceAndTheRestWaitForTheInterval() async throws {
    let h = Harness()
    try h.thread.send("Q")
    h.source.yield("a")
    #expect(await until { h.last?.text == "a" })
    let revision = h.thread.replyRevision
    for chunk in ["b", "c", "d"] { h.source.yield(chunk) }
    #expect(await until { h.clock.sleeperCount == 1 })
    await settle()
    #expect(h.last?.text == "a")
    #expect(h.thread.replyRevision == revision)
    h.clock.advance(by: 1.0 / 30)
    #expect(await until { h.last?.text == "abcd" })
    #expect(h.thread.replyRevision == revision + 1)
    #expect(h.recorder.updates.map(\.appended) == ["a", "bcd"])
  }

  @Test func aChunkAfterTheIntervalPublishesAtOnce() async throws {
    let h = Harness()
    try h.thread.send("Q")
    h.source.yield("a")
    #expect(await until { h.last?.text == "a" })
    h.clock.advance(by: 0.05)
    h.source.yield("b")
    #expect(await until { h.last?.text == "ab" })
    #expect(h.clock.sleeperCount == 0)
  }

  @Test func theTerminalStatePublishesThePendingTailAtOnce() async throws {
    let h = Harness(publishInterval: 100)
    try h.thread.send("Q")
    h.source.yield("x")
    #expect(await until { h.last?.text == "x" })
    for chunk in ["y", "z"] { h.source.yield(chunk) }
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    #expect(h.last?.text == "xyz")
    #expect(h.recorder.updates.map(\.appended) == ["x", "yz"])
    #expect(h.recorder.updates.map(\.isFinal) == [false, true])
    #expect(h.recorder.updates.map(\.revision) == [1, 2])
    // The pending flush was cancelled with the run.
    #expect(await until { h.clock.sleeperCount == 0 })
  }

  @Test func updatesRebuildExactlyTheTextWithNothingLost() async throws {
    let h = Harness()
    try h.thread.send("Q")
    var expected = ""
    var generator = SplitMix64(seed: 7)
    for index in 0..<400 {
      let chunk = "w\(index) "
      expected += chunk
      h.source.yield(chunk)
      if generator.next() % 5 == 0 {
        await settle(3)
        h.clock.advance(by: Double(generator.next() % 50) / 1000)
      }
    }
    h.source.finish()
    #expect(await until { h.last?.state == .complete })
    #expect(h.last?.text == expected)
    let updates = h.recorder.updates
    #expect(updates.map(\.appended).joined() == expected)
    #expect(updates.count < 400)
    #expect(updates.allSatisfy { $0.messageID == h.last?.id })
    #expect(updates.map(\.revision) == Array(1...updates.count))
  }
}
