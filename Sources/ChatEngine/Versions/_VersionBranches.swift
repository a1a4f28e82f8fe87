import Foundation

/// The versions of a thread that are not on the shown path, and the forks they hang from.
///
/// The thread is a tree of turns: a turn's children are the versions of the turn after it. The
/// shown path (``ChatThread/messages``) lives outside this type; this type holds the rest:
/// - `forks`: for every turn with two or more next turns (the key; `nil` for the first turns of
///   the thread), those turns oldest first. A turn with one next turn has no entry.
/// - `hidden`: every next turn at a fork that does not show, with the turns that show after it
///   when it does (its branch: the turn, then at each turn the version last shown there, down to a
///   leaf). The version that shows at a fork is the turn right after the parent in the array that
///   holds the parent (the shown path, or a hidden branch).
/// - `parents`: the parent of every turn at a fork.
///
/// Switching moves two arrays (the shown suffix out, the chosen branch in): O(turns after the
/// switched turn) copies and O(1) dictionary operations, never one per turn.
struct _VersionBranches: Hashable, Sendable {
  /// A fork's key: the turn before the versions, `nil` before the first turn.
  typealias Key = UUID?

  var forks: [Key: [UUID]] = [:]
  var hidden: [UUID: [ChatMessage]] = [:]
  var parents: [UUID: Key] = [:]

  /// Whether any turn has more than one version.
  var isEmpty: Bool { forks.isEmpty }

  /// The fork key of the turn at `index` of `path`.
  static func key(at index: Int, in path: [ChatMessage]) -> Key {
    index > 0 ? path[index - 1].id : nil
  }

  /// The versions of the turn at `index` of `path`, or `nil` when it has only one.
  ///
  /// - Complexity: O(versions of the turn).
  func versions(at index: Int, in path: [ChatMessage]) -> ChatVersions? {
    guard !forks.isEmpty, path.indices.contains(index),
      let ids = forks[Self.key(at: index, in: path)],
      let shown = ids.firstIndex(of: path[index].id)
    else { return nil }
    return ChatVersions(ids: ids, shownIndex: shown)
  }

  /// Adds `version` as the newest version of the turn at `index` of `path` and shows it: the turn
  /// at `index` and everything after it become its hidden branch, and `version` ends the path.
  ///
  /// - Complexity: O(turns from `index` to the end).
  mutating func addVersion(_ version: ChatMessage, at index: Int, of path: inout [ChatMessage]) {
    let key = Self.key(at: index, in: path)
    let old = path[index].id
    if forks[key] == nil {
      forks[key] = [old]
      parents[old] = key
    }
    forks[key, default: []].append(version.id)
    parents[version.id] = key
    hidden[old] = Array(path[index...])
    path.removeSubrange(index...)
    path.append(version)
  }

  /// Shows the hidden version `id` of a shown turn: the shown turn's branch is hidden and `id`'s
  /// branch takes its place. Returns the index of the first turn that changed, or `nil` when `id`
  /// is not a hidden version whose parent shows (nothing changes then).
  ///
  /// - Parameter known: the index of the shown version of the turn, when the caller found it.
  /// - Complexity: O(n) to find the parent on the path (unless `known`), plus O(turns after it)
  ///   copies.
  mutating func show(_ id: UUID, in path: inout [ChatMessage], at known: Int? = nil) -> Int? {
    guard hidden[id] != nil, let key = parents[id] else { return nil }
    var index = 0
    if let known {
      guard path.indices.contains(known), Self.key(at: known, in: path) == key else { return nil }
      index = known
    } else if let key {
      guard let parent = path.lastIndex(where: { $0.id == key }) else { return nil }
      index = parent + 1
    }
    guard index < path.count, let branch = hidden.removeValue(forKey: id) else { return nil }
    hidden[path[index].id] = Array(path[index...])
    path.removeSubrange(index...)
    path.append(contentsOf: branch)
    return index
  }

  /// Where the hidden message `id` is: its branch's head and its offset there.
  ///
  /// - Complexity: O(hidden turns); for rare look-ups (a rating answered after a switch).
  func location(of id: UUID) -> (head: UUID, offset: Int)? {
    if let branch = hidden[id], branch.first?.id == id { return (id, 0) }
    for (head, branch) in hidden {
      if let offset = branch.firstIndex(where: { $0.id == id }) { return (head, offset) }
    }
    return nil
  }

  /// The hidden message `id`, if it is one.
  func message(_ id: UUID) -> ChatMessage? {
    guard let (head, offset) = location(of: id) else { return nil }
    return hidden[head]?[offset]
  }

  /// Changes the hidden message `id` in place; returns whether there was one.
  @discardableResult
  mutating func update(_ id: UUID, _ change: (inout ChatMessage) -> Void) -> Bool {
    guard let (head, offset) = location(of: id) else { return false }
    change(&hidden[head, default: []][offset])
    return true
  }

  /// Every hidden message, branch by branch.
  var hiddenMessages: [ChatMessage] {
    hidden.values.flatMap { $0 }
  }

  /// The first broken rule of the structure with `path` shown, or `nil` when it holds: every
  /// fork has two or more versions with one parent each, exactly one of which is shown (right
  /// after the parent in the array that holds it) and the others head hidden branches; every
  /// hidden branch hangs from a fork; no id is in two places.
  func brokenRule(path: [ChatMessage]) -> String? {
    var seen = Set<UUID>()
    var container: [UUID: (head: UUID?, offset: Int)] = [:]
    for (offset, message) in path.enumerated() {
      guard seen.insert(message.id).inserted else { return "the id \(message.id) shows twice" }
      container[message.id] = (nil, offset)
    }
    for (head, branch) in hidden {
      guard branch.first?.id == head else { return "the branch of \(head) starts elsewhere" }
      for (offset, message) in branch.enumerated() {
        guard seen.insert(message.id).inserted else { return "the id \(message.id) is in two places" }
        container[message.id] = (head, offset)
      }
    }
    var heads = 0
    for (key, children) in forks {
      guard children.count >= 2 else { return "a fork with \(children.count) version" }
      var shown = 0
      for child in children {
        guard parents[child] == .some(key) else { return "the version \(child) has another parent" }
        if hidden[child] != nil {
          heads += 1
          continue
        }
        guard let place = container[child] else { return "the version \(child) is nowhere" }
        if let key {
          guard let parent = container[key], parent.head == place.head, parent.offset + 1 == place.offset else {
            return "the shown version \(child) does not follow its parent"
          }
        } else {
          guard place.head == nil, place.offset == 0 else { return "the shown first turn is not first" }
        }
        shown += 1
      }
      guard shown == 1 else { return "a fork shows \(shown) versions" }
    }
    guard heads == hidden.count else { return "a hidden branch hangs from no fork" }
    guard parents.count == forks.values.reduce(0, { $0 + $1.count }) else { return "a parent of no version" }
    return nil
  }
}
