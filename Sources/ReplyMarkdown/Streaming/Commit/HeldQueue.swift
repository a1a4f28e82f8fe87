/// The closed blocks of a stream that are not committed yet, oldest first.
///
/// A block waits here while a definition arriving later could still change it (it uses a label
/// with no definition yet), and every block after a waiting block waits behind it, because blocks
/// commit in order.
struct HeldQueue: Sendable {
  /// A held block.
  struct Entry: Sendable {
    let id: Int
    /// The block as parsed, references as they stand.
    var document: MarkdownDocument
    /// Where it came from in the received text.
    let sourceRange: Range<Int>
    /// Its first line in the reply (1-based) and the line just past it.
    let lines: Range<Int>
    /// Labels it uses that have no definition yet.
    var waiting: Set<String>
    /// Whether it holds a footnote reference.
    var hasFootnoteReferences: Bool
  }

  private var storage: [Entry] = []
  private var head = 0
  /// The source bytes of the held blocks.
  private(set) var bytes = 0

  var isEmpty: Bool { head == storage.count }
  var count: Int { storage.count - head }
  var first: Entry? { isEmpty ? nil : storage[head] }
  var entries: ArraySlice<Entry> { storage[head...] }

  mutating func append(_ entry: Entry) {
    storage.append(entry)
    bytes += entry.sourceRange.count
  }

  mutating func removeFirst() -> Entry {
    let entry = storage[head]
    head += 1
    bytes -= entry.sourceRange.count
    if head > 64 && head * 2 > storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return entry
  }

  mutating func removeAll() {
    storage = []
    head = 0
    bytes = 0
  }

  /// Replaces the entry at `position` of ``entries`` (a block re-parsed after a definition came).
  mutating func replace(at position: Int, with entry: Entry) {
    bytes += entry.sourceRange.count - storage[position].sourceRange.count
    storage[position] = entry
  }
}
