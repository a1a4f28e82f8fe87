import ChatEngine
import ChatModels
import Foundation
import ReplyKitTestSupport
import Testing

/// A 429's `Retry-After`, whatever the server writes in it, is a wait in seconds or none, never
/// a crash.
@Suite(.serialized, .timeLimit(.minutes(1))) struct RetryAfterTests {
  @Test func secondsAndDates() {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(ModelReplySource.retryAfterSeconds("7", now: now) == 7)
    #expect(ModelReplySource.retryAfterSeconds(" 1.5 ", now: now) == 2)
    #expect(ModelReplySource.retryAfterSeconds("86400", now: now) == 86_400)
    #expect(ModelReplySource.retryAfterSeconds("Tue, 14 Nov 2023 22:13:20 GMT", now: now) == 0)
    #expect(ModelReplySource.retryAfterSeconds("Tue, 14 Nov 2023 22:14:20 GMT", now: now) == 60)
  }

  @Test func hugeInfiniteAndNonsenseWaitsAreAbsent() {
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    for value in [
      "inf", "-inf", "infinity", "nan", "1e300", "99999999999999999999", "86401", "-1", "soon",
      "Fri, 31 Dec 9999 23:59:59 GMT",
    ] {
      #expect(ModelReplySource.retryAfterSeconds(value, now: now) == nil, "\(value)")
    }
  }

  /// The whole path: a 429 with `Retry-After: inf` fails the reply with the usual advice.
  @Test func infiniteRetryAfterFailsTheReplyPlainly() async throws {
    let server = try LocalModelServer([
      [.head(status: 429, headers: [("Retry-After", "inf")]), .text("slow down"), .end]
    ])
    let result = await collect(ModelReplySource(endpoint: endpoint(.openai, server)).stream(history: history()))
    #expect(result.message == "Rate limited (429). Wait, then retry. Server: slow down")
  }
}
