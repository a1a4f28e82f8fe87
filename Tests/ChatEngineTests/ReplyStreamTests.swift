import ChatEngine
import Foundation
import Synchronization
import Testing

@MainActor
@Suite("Reply stream helper")
struct ReplyStreamTests {
  @Test func chunksThenFinish() async throws {
    let stream = ChatReplyStream.make { write in
      write("a")
      write("b")
    }
    var chunks: [String] = []
    for try await chunk in stream { chunks.append(chunk) }
    #expect(chunks == ["a", "b"])
  }

  @Test func aThrowEndsTheStreamWithTheError() async throws {
    let stream = ChatReplyStream.make { write in
      write("a")
      throw TestFailure()
    }
    var chunks: [String] = []
    await #expect(throws: TestFailure.self) {
      for try await chunk in stream { chunks.append(chunk) }
    }
    #expect(chunks == ["a"])
  }

  @Test func stoppingTheReplyCancelsTheProducingTask() async throws {
    let cancelled = TerminationFlag()
    let h = Harness(publishInterval: 0)
    let thread = ChatThread(
      environment: ChatEnvironment(clock: h.clock, publishInterval: 0),
      reply: { _ in
        ChatReplyStream.make { write in
          write("first")
          await withTaskCancellationHandler {
            while !Task.isCancelled { await Task.yield() }
          } onCancel: {
            cancelled.set()
          }
        }
      })
    try thread.send("Q")
    #expect(await until { thread.messages.last?.text == "first" })
    thread.stop()
    #expect(await until { cancelled.isSet })
    #expect(thread.messages.last?.state == .stopped)
    #expect(thread.messages.last?.text == "first")
  }
}
