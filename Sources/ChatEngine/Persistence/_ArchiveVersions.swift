import Foundation

/// The versions of a thread in the archive shape: the top-level `versions` array.
///
/// `messages` holds the shown path as it always did, so a reader that knows nothing of versions
/// reads the conversation as shown. Every other version is in `versions`, one entry per version
/// that does not show: `{"parent": "UUID" | null, "version": N, "messages": [...]}`. `parent` is
/// the turn it follows (`null`: a first turn), `version` its number among the versions after that
/// turn (from 1), `messages` the version and the turns shown after it on its branch. The version
/// that shows after a turn is the message right after it (in `messages`, or in the entry that
/// holds it) and takes the number no entry has. An entry's parent is a message of `messages` or
/// of an earlier entry, so the file is read in one pass and can hold no cycle.
enum _ArchiveVersions {
  static let entryKeys: Set<String> = ["parent", "version", "messages"]

  /// The `versions` array of `tree` (parents first), or `nil` when no turn has another version.
  ///
  /// - Complexity: O(messages in the tree).
  static func value(_ tree: ChatThreadTree, message: (ChatMessage) -> _JSONValue) -> _JSONValue? {
    let branches = tree.branches
    guard !branches.isEmpty else { return nil }
    var entries: [_JSONValue] = []
    // Arrays still to look through for forks: the shown path, then each branch written.
    var queue: [(messages: [ChatMessage], firstKey: _VersionBranches.Key, start: Int)] = [(tree.messages, nil, 0)]
    var next = 0
    while next < queue.count {
      let (array, firstKey, start) = queue[next]
      next += 1
      for index in array.indices where index >= start {
        let key = index == 0 ? firstKey : array[index - 1].id
        guard let children = branches.forks[key] else { continue }
        for (number, child) in children.enumerated() where child != array[index].id {
          guard let branch = branches.hidden[child] else { continue }
          entries.append(
            .object([
              _JSONMember(key: "messages", value: .array(branch.map(message))),
              _JSONMember(key: "parent", value: key.map { .string($0.uuidString) } ?? .null),
              _JSONMember(key: "version", value: .number(String(number + 1))),
            ]))
          // The branch's own first turn belongs to the fork just written.
          queue.append((branch, key, 1))
        }
      }
    }
    return .array(entries)
  }

  /// Reads the `versions` array into branches off `path`, extending `path` (or a branch) when an
  /// entry continues a turn that has nothing after it. `places` names where each id was read.
  static func read(
    _ value: _JSONValue, path: inout [ChatMessage], places: inout [UUID: String]
  ) throws(ChatArchiveError) -> _VersionBranches {
    guard case .array(let items) = value else { throw .invalid(path: "versions", problem: "expected an array") }
    // Where each message is: the head of its branch (`nil`: the shown path) and its offset there.
    var location: [UUID: (head: UUID?, offset: Int)] = [:]
    for (offset, message) in path.enumerated() { location[message.id] = (nil, offset) }
    var hidden: [UUID: [ChatMessage]] = [:]
    // The versions after each turn, in file order: numbered entries, and the one that shows.
    var children: [_VersionBranches.Key: [(number: Int?, id: UUID, place: String)]] = [:]
    var order: [_VersionBranches.Key] = []
    var roles: [_VersionBranches.Key: ChatMessage.Role] = [:]

    for (index, item) in items.enumerated() {
      let place = "versions[\(index)]"
      guard case .object(let members) = item else {
        throw .invalid(path: place, problem: "expected an object, found \(item.kindName)")
      }
      if let unknown = members.first(where: { !entryKeys.contains($0.key) }) {
        throw .invalid(
          path: "\(place).\(unknown.key)", problem: "not a field of a version (a version has parent, version, messages)"
        )
      }
      let key: _VersionBranches.Key
      switch item["parent"] {
      case .none: throw .invalid(path: "\(place).parent", problem: "missing (null for a version of a first turn)")
      case .some(.null): key = nil
      case .some(.string(let text)):
        guard let id = UUID(uuidString: text) else {
          throw .invalid(path: "\(place).parent", problem: "expected a UUID")
        }
        guard location[id] != nil else {
          throw .invalid(
            path: "\(place).parent",
            problem:
              "no message before this entry has the id \(text); a version follows a message of messages or of an earlier version"
          )
        }
        key = id
      case .some(let other):
        throw .invalid(path: "\(place).parent", problem: "expected a UUID or null, found \(other.kindName)")
      }
      guard case .number(let numberText) = item["version"], let number = Int(numberText), number >= 1 else {
        // A number past Int's range is a whole number all the same: say what bounds it.
        if case .number(let numberText) = item["version"], numberText.allSatisfy(\.isWholeNumber) {
          throw .invalid(path: "\(place).version", problem: "expected a whole number from 1 to \(Int.max)")
        }
        throw .invalid(path: "\(place).version", problem: "expected a whole number from 1")
      }
      guard case .array(let messageItems) = item["messages"] else {
        throw .invalid(path: "\(place).messages", problem: item["messages"] == nil ? "missing" : "expected an array")
      }
      guard !messageItems.isEmpty else {
        throw .invalid(path: "\(place).messages", problem: "empty; a version holds at least its own turn")
      }
      var branch: [ChatMessage] = []
      branch.reserveCapacity(messageItems.count)
      for (offset, messageItem) in messageItems.enumerated() {
        let messagePlace = "\(place).messages[\(offset)]"
        let message = try _ArchiveMessage.read(messageItem, path: messagePlace)
        if let first = places.updateValue(messagePlace, forKey: message.id) {
          throw .invalid(
            path: "\(messagePlace).id",
            problem: "the same id as \(first) (\(message.id.uuidString)); every message needs its own id")
        }
        branch.append(message)
      }
      let head = branch[0]

      // The turn the entry follows, and what shows after it now.
      let parentPlace = key.flatMap { location[$0] }
      let container = parentPlace?.head
      let nextOffset = (parentPlace?.offset ?? -1) + 1
      let containerCount = container.map { hidden[$0]?.count ?? 0 } ?? path.count
      if children[key] == nil {
        order.append(key)
        children[key] = []
        if nextOffset < containerCount {
          let shown = container.flatMap { hidden[$0]?[nextOffset] } ?? path[nextOffset]
          children[key]?.append((nil, shown.id, places[shown.id] ?? "messages"))
          roles[key] = shown.role
        }
      }
      if let first = children[key]?.first(where: { $0.number == number }) {
        throw .invalid(
          path: "\(place).version", problem: "version \(number) of this turn is \(first.place) already")
      }
      if let role = roles[key], role != head.role {
        throw .invalid(
          path: "\(place).messages[0].role",
          problem: "a version of \(role == .user ? "your turn must be your turn" : "a reply must be a reply")")
      }
      roles[key] = head.role
      children[key]?.append((number, head.id, place))
      if nextOffset >= containerCount {
        // Nothing shows after the parent: this version shows, continuing its array.
        for (offset, message) in branch.enumerated() { location[message.id] = (container, containerCount + offset) }
        if let container { hidden[container, default: []] += branch } else { path += branch }
      } else {
        for (offset, message) in branch.enumerated() { location[message.id] = (head.id, offset) }
        hidden[head.id] = branch
      }
    }

    var branches = _VersionBranches()
    for key in order {
      guard let list = children[key], list.count >= 2 else { continue }
      var numbered = list.filter { $0.number != nil }.sorted { ($0.number ?? 0) < ($1.number ?? 0) }
      if let shown = list.first(where: { $0.number == nil }) {
        // The shown version takes the first number no entry has.
        var gap = 1
        for entry in numbered where entry.number == gap { gap += 1 }
        let position = numbered.firstIndex { ($0.number ?? 0) > gap } ?? numbered.count
        numbered.insert(shown, at: position)
      }
      branches.forks[key] = numbered.map(\.id)
      for entry in numbered { branches.parents[entry.id] = key }
    }
    // Only the heads of versions that do not show are branches.
    for (head, branch) in hidden where branches.parents[head] != nil { branches.hidden[head] = branch }
    return branches
  }
}
