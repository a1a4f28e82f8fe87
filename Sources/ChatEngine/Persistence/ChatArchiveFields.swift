/// Fields of a thread file that ReplyKit does not read, kept so that saving writes them back.
///
/// Another tool may add fields to a thread file (`"model": "…"` at the top level, `"tokens": 12`
/// on a message). ``ChatArchive`` keeps them through a load and save: a message carries its own in
/// ``ChatMessage/archiveFields``, and ``ChatArchive/Document/fields`` holds the top level's.
/// Values are kept exactly as parsed (numbers as written, members of nested objects in file
/// order) and re-indented; the fields themselves are kept sorted by name, as they are written.
public struct ChatArchiveFields: Sendable, Hashable {
  var members: [_JSONMember]

  /// No fields.
  public init() {
    members = []
  }

  /// Members sorted by name, the order they are written in.
  init(members: [_JSONMember]) {
    self.members = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
  }

  /// Whether there are no unknown fields.
  public var isEmpty: Bool { members.isEmpty }

  /// The names of the fields, sorted.
  public var names: [String] { members.map(\.key) }

  /// The value of the field `name` as compact JSON text (`12`, `"gpt"`, `{"a":[1]}`), or `nil`.
  public subscript(name: String) -> String? {
    guard let value = members.first(where: { $0.key == name })?.value else { return nil }
    var text = ""
    value.write(to: &text, indent: 0)
    return text.split(separator: "\n").map { $0.trimmingPrefix(while: \.isWhitespace) }.joined()
  }
}

extension Substring {
  fileprivate func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring {
    self[(firstIndex { !predicate($0) } ?? endIndex)...]
  }
}
