import Foundation

extension ChatThread {
  /// The versions of the shown turn `id`, or `nil` when it has only one (or is not shown).
  ///
  /// - Complexity: O(n) to find the turn.
  public func versions(of id: UUID) -> ChatVersions? {
    guard !branches.isEmpty, let index = index(of: id) else { return nil }
    return branches.versions(at: index, in: messages)
  }

  /// The versions of the shown turn at `index` of ``messages``, or `nil` when it has only one.
  ///
  /// - Complexity: O(versions of the turn).
  public func versions(at index: Int) -> ChatVersions? {
    branches.versions(at: index, in: messages)
  }

  /// The message `id`, shown or not (a view previews another version with it).
  ///
  /// - Complexity: O(n).
  public func version(_ id: UUID) -> ChatMessage? {
    tree.message(id)
  }

  /// Shows the version `id` of a shown turn; the turns after it follow that version's branch as
  /// it was last shown. A streaming reply is stopped first (Stopped, its text kept). Announces
  /// "Version N of M". Showing the version that already shows changes nothing.
  ///
  /// - Throws: why nothing changed: `id` is no message, or a version whose turn is not shown
  ///   (``ChatActionError/notShown(_:)``).
  /// - Complexity: O(n) to find the turn, plus copies of the turns after it (no markdown is parsed).
  public func showVersion(_ id: UUID) throws(ChatActionError) {
    guard branches.hidden[id] != nil, let key = branches.parents[id] else {
      if index(of: id) != nil { return }
      throw absent(id)
    }
    // The version's turn is right after its parent (or first).
    var at = 0
    if let key {
      guard let parent = index(of: key) else { throw .notShown(id) }
      at = parent + 1
    }
    stop()
    guard let changed = changePath({ branches.show(id, in: &$0, at: at) }) else { throw absent(id) }
    pathChanged(from: changed)
    copied = nil
    if let versions = branches.versions(at: changed, in: messages) {
      environment.announce(.versionShown(number: versions.number, count: versions.count))
    }
    startReplyIfNeeded()
  }

  /// Shows version `number` (from 1) of the shown turn `id`, as ``showVersion(_:)`` does.
  ///
  /// - Throws: ``ChatActionError/noSuchVersion(_:number:count:)`` when the turn has no such
  ///   version, or why `id` is not a shown turn.
  public func showVersion(_ number: Int, of id: UUID) throws(ChatActionError) {
    let index = try shownIndex(id)
    let versions = branches.versions(at: index, in: messages)
    let ids = versions?.ids ?? [id]
    guard (1...ids.count).contains(number) else {
      throw .noSuchVersion(id, number: number, count: ids.count)
    }
    try showVersion(ids[number - 1])
  }

  /// Shows the version before the shown one of turn `id` (see ``showVersion(_:)``).
  ///
  /// - Throws: ``ChatActionError/noSuchVersion(_:number:count:)`` on the first version.
  public func showPreviousVersion(of id: UUID) throws(ChatActionError) {
    let index = try shownIndex(id)
    let number = branches.versions(at: index, in: messages)?.number ?? 1
    try showVersion(number - 1, of: id)
  }

  /// Shows the version after the shown one of turn `id` (see ``showVersion(_:)``).
  ///
  /// - Throws: ``ChatActionError/noSuchVersion(_:number:count:)`` on the latest version.
  public func showNextVersion(of id: UUID) throws(ChatActionError) {
    let index = try shownIndex(id)
    let number = branches.versions(at: index, in: messages)?.number ?? 1
    try showVersion(number + 1, of: id)
  }

  /// Whether ``edit(_:text:)`` would act on `id`: a shown turn of the person's.
  public func canEdit(_ id: UUID) -> Bool {
    guard let index = index(of: id) else { return false }
    return messages[index].role == .user
  }

  /// Edits the person's shown turn `id`: adds `text` as its newest version (a new id, dated now),
  /// shows it, and asks for a reply to it. The old turn and every turn after it stay as the
  /// other branch. A streaming reply is stopped first (Stopped, its text kept); following resumes.
  ///
  /// Any of the person's turns can be edited, not only the latest; the same text makes a new
  /// version too (a way to ask again for an earlier reply).
  ///
  /// - Throws: why nothing changed: `text` is empty or white space, `id` is no shown turn, or it
  ///   is a reply (``ChatActionError/notAUserTurn(_:)``).
  public func edit(_ id: UUID, text: String) throws(ChatActionError) {
    guard text.contains(where: { !$0.isWhitespace }) else { throw .emptyMessage }
    guard messages[try shownIndex(id)].role == .user else { throw .notAUserTurn(id) }
    stop()
    // Stop never moves a turn, but the index is looked up again after it all the same.
    let index = try shownIndex(id)
    let version = ChatMessage(id: environment.makeID(), role: .user, text: text, date: environment.clock.now())
    changePath { branches.addVersion(version, at: index, of: &$0) }
    pathChanged(from: index)
    copied = nil
    follow.jumpedToLatest()
    startReply(replacingLast: false)
  }

  /// The shown path changed from `index` on: the day sections are recomputed from there.
  func pathChanged(from index: Int) {
    structureVersion += 1
    pathChangedFrom = min(pathChangedFrom, index)
    noteGrowth()
  }
}
