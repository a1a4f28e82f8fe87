import Foundation

/// A whole thread with every version of every turn: the shown path and the branches off it.
///
/// A thread is a tree of turns. Each turn's next turns are its versions (a reply regenerated or
/// retried, the person's turn edited); one of them shows, and below it the version that showed
/// there last, down to the end. ``messages`` is that shown path, oldest first: what a view draws,
/// what is sent to the model and what Copy, Share and the transcript read. The other versions
/// stay, each with the turns that came after it, and ``ChatThread/showVersion(_:)`` brings one
/// back.
///
/// What ``ChatArchive`` saves and loads: a saved tree loads equal to itself (`==`), every
/// version and every choice of shown version included.
///
/// - Thread safety: a value type (`Sendable`).
public struct ChatThreadTree: Hashable, Sendable {
  /// The shown path, oldest first.
  public internal(set) var messages: [ChatMessage]
  var branches: _VersionBranches

  /// A thread without other versions.
  public init(messages: [ChatMessage] = []) {
    self.messages = messages
    branches = _VersionBranches()
  }

  init(messages: [ChatMessage], branches: _VersionBranches) {
    self.messages = messages
    self.branches = branches
  }

  /// Whether any turn has another version.
  public var hasVersions: Bool { !branches.isEmpty }

  /// The versions of the shown turn at `index` of ``messages``, or `nil` when it has only one.
  ///
  /// - Complexity: O(versions of the turn).
  public func versions(at index: Int) -> ChatVersions? {
    branches.versions(at: index, in: messages)
  }

  /// The versions of the turns after `parent` (`nil`: the first turns) with `id` as the one that
  /// shows, or `nil` when there is one turn there or `id` is not among them. For a turn inside
  /// another version's ``branch(from:)``: its parent is the turn before it there.
  ///
  /// - Complexity: O(versions of the turn).
  public func versions(after parent: UUID?, showing id: UUID) -> ChatVersions? {
    guard let ids = branches.forks[parent], let shown = ids.firstIndex(of: id) else { return nil }
    return ChatVersions(ids: ids, shownIndex: shown)
  }

  /// The message `id`, shown or not.
  ///
  /// - Complexity: O(n).
  public func message(_ id: UUID) -> ChatMessage? {
    messages.last { $0.id == id } ?? branches.message(id)
  }

  /// The version `id` of a turn with the turns that follow it on its branch (for the shown
  /// version, the rest of ``messages``), or `nil` when `id` is not a version of a turn at a fork.
  ///
  /// - Complexity: O(1) for a hidden version; O(n) for the shown one.
  public func branch(from id: UUID) -> [ChatMessage]? {
    if let branch = branches.hidden[id] { return branch }
    guard branches.parents[id] != nil, let index = messages.lastIndex(where: { $0.id == id }) else { return nil }
    return Array(messages[index...])
  }

  /// Every message of the tree, shown or not: the shown path, then the hidden branches.
  public var allMessages: [ChatMessage] {
    messages + branches.hiddenMessages
  }

  /// How many messages the tree holds, shown or not.
  public var messageCount: Int {
    messages.count + branches.hidden.values.reduce(0) { $0 + $1.count }
  }

  /// Shows the version `id` of a shown turn (see ``ChatThread/showVersion(_:)``); returns whether
  /// anything changed.
  ///
  /// - Complexity: O(n) to find its place, plus copies of the turns after it.
  @discardableResult
  public mutating func showVersion(_ id: UUID) -> Bool {
    branches.show(id, in: &messages) != nil
  }

  /// The first broken rule of the tree's structure, or `nil` (for tests).
  package var brokenRule: String? { branches.brokenRule(path: messages) }

  /// The tree made safe to show: every message normalised as ``ChatMessage/normalized(_:)``
  /// does (a streaming version becomes failed), in every branch.
  ///
  /// Ids are expected unique across the tree (``ChatArchive`` checks that); on the shown path a
  /// repeated id is dropped as ``ChatMessage/normalized(_:)`` drops it, together with any
  /// versions after it, which then have no place.
  public func normalized() -> ChatThreadTree {
    let path = ChatMessage.normalized(messages)
    guard !branches.isEmpty else { return ChatThreadTree(messages: path) }
    guard path.count == messages.count else {
      // A repeated id on the path: the versions after it have no place; the path is kept.
      return ChatThreadTree(messages: path)
    }
    var branches = self.branches
    for head in Array(branches.hidden.keys) {
      branches.hidden[head] = branches.hidden[head].map { $0.map(ChatMessage.normalizedAlone) }
    }
    return ChatThreadTree(messages: path, branches: branches)
  }
}
