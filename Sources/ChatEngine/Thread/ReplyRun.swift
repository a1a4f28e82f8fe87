import Foundation

/// One run of the reply stream into one reply message: the fence every write from it must pass.
///
/// Chunks accumulate in `pending` (not observed, so not published) until the coalescing rule
/// publishes them into the message; `token` is unique per run within a thread.
@MainActor
package final class ReplyRun {
  let messageID: UUID
  let token: UInt64
  var task: Task<Void, Never>?
  var flushTask: Task<Void, Never>?
  var pending = ""
  var publishCount = 0
  var lastPublish = Date.distantPast

  init(messageID: UUID, token: UInt64) {
    self.messageID = messageID
    self.token = token
  }
}
