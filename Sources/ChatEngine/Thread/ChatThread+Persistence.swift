import Foundation

extension ChatThread {
  /// Saves the thread as shown to `url`, atomically (see ``ChatArchive/save(_:to:timeZone:)``).
  public func save(to url: URL) throws(ChatArchiveError) {
    try ChatArchive.save(messages, to: url, timeZone: environment.timeZone)
  }

  /// Loads the thread at `url` in place of this one (see ``replaceThread(with:)``); on any
  /// error the thread is unchanged.
  public func load(from url: URL) throws(ChatArchiveError) {
    let loaded = try ChatArchive.load(from: url)
    replaceThread(with: loaded)
  }
}
