import Foundation

/// One run of the reply stream into one reply message: the fence every write from it must pass.
///
/// The reading task puts chunks in `inbox` as they arrive; the thread takes them into `pending`
/// (not observed, so not published) until the coalescing rule publishes them into the message;
/// `token` is unique per run within a thread. `waiters` are resumed when the run closes.
@MainActor
package final class ReplyRun {
  let messageID: UUID
  let token: UInt64
  var task: Task<Void, Never>?
  var flushTask: Task<Void, Never>?
  package let inbox = ReplyInbox()
  var pending = ""
  var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
  var nextWaiter: UInt64 = 0
  var publishCount = 0
  var lastPublish = Date.distantPast

  init(messageID: UUID, token: UInt64) {
    self.messageID = messageID
    self.token = token
  }
}
