import Foundation

extension ChatThread {
  /// Saves the thread, every version and which one shows, to `url`, atomically (see ``ChatArchive/save(_:to:timeZone:)``).
  /// `fields` are the top-level fields of the file the thread came from
  /// (``ChatArchive/Document/fields``), written back so that a load and save loses nothing.
  public func save(to url: URL, fields: ChatArchiveFields = ChatArchiveFields()) throws(ChatArchiveError) {
    try ChatArchive.save(
      ChatArchive.Document(tree: tree, fields: fields), to: url, timeZone: environment.timeZone)
  }

  /// Loads the thread at `url` in place of this one (see ``replaceThread(with:)``); on any
  /// error the thread is unchanged.
  public func load(from url: URL) throws(ChatArchiveError) {
    let loaded = try ChatArchive.loadDocument(from: url)
    replaceThread(with: loaded.tree)
  }
}
