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
    /// Bytes of definitions of labels it waits for that arrived since its last parse.
    var deferredDefinitionBytes = 0
    /// The bytes its last parse took (the block and its preamble).
    var lastParseBytes = 0
    /// The labels whose first definition is its own and the stream did not keep
    /// (``MarkdownStream/unkeptLabels``): its own parse resolves them.
    var ownUnkept: Set<String> = []
    /// What it was last shown as: its document with footnotes numbered, and the display made of
    /// that (``MarkdownStream/heldDisplay(from:)``). Shown again while the numbered document is
    /// the same, so a block listed again costs no display work and hands consumers the very
    /// document they rendered.
    var shown: (numbered: MarkdownDocument, display: MarkdownDocument)?
  }

  private var storage: [Entry] = []
  private var head = 0
  /// Entries dropped from the front of `storage`: an entry's position is its index plus this.
  private var removed = 0
  /// The positions of the entries that wait for each label (some may have committed since).
  private var waitingByLabel: [String: [Int]] = [:]
  /// The source bytes of the held blocks.
  private(set) var bytes = 0

  var isEmpty: Bool { head == storage.count }
  var count: Int { storage.count - head }
  var first: Entry? { isEmpty ? nil : storage[head] }
  var entries: ArraySlice<Entry> { storage[head...] }

  /// The entry at `position` (a position from ``positionsWaiting(for:)``).
  subscript(position: Int) -> Entry { storage[position - removed] }

  mutating func append(_ entry: Entry) {
    index(entry, at: removed + storage.count)
    storage.append(entry)
    bytes += entry.sourceRange.count
  }

  mutating func removeFirst() -> Entry {
    let entry = storage[head]
    head += 1
    bytes -= entry.sourceRange.count
    if head > 64 && head * 2 > storage.count {
      storage.removeFirst(head)
      removed += head
      head = 0
    }
    return entry
  }

  mutating func removeAll() {
    removed += storage.count
    storage = []
    head = 0
    bytes = 0
    waitingByLabel = [:]
  }

  /// The positions of the held entries that wait for one of `labels`, in order; they are no
  /// longer listed under those labels (a re-parsed entry lists itself again under what it still
  /// waits for).
  ///
  /// - Complexity: proportional to the entries that waited for the labels, not to all held.
  mutating func takePositionsWaiting(for labels: Set<String>) -> [Int] {
    var positions: Set<Int> = []
    let first = removed + head
    for label in labels {
      guard let listed = waitingByLabel.removeValue(forKey: label) else { continue }
      for position in listed where position >= first && self[position].waiting.contains(label) {
        positions.insert(position)
      }
    }
    return positions.sorted()
  }

  /// How many listings ``takePositionsWaiting(for:)`` keeps, all labels together (for tests: a
  /// count that must stay linear in what the held blocks wait for).
  var listingCount: Int { waitingByLabel.values.reduce(0) { $0 + $1.count } }

  /// The entry at `offset` (0 is the oldest held).
  func entry(atOffset offset: Int) -> Entry { storage[head + offset] }

  /// Keeps what the entry at `offset` (0 is the oldest held) was shown as.
  mutating func setShown(_ shown: (numbered: MarkdownDocument, display: MarkdownDocument), atOffset offset: Int) {
    storage[head + offset].shown = shown
  }

  /// Replaces the entry at `position` (a block re-parsed after a definition came, or not yet),
  /// taken by ``takePositionsWaiting(for:)`` for `taken`: it is listed again under the labels of
  /// `taken` it still waits for and under those it did not wait for before; under the others it
  /// is listed still. (Listing it again under all of them made a block citing thousands of
  /// footnotes, defined one by one, cost the square of their number: a trial.)
  ///
  /// - Complexity: O(labels of `taken` and labels it waits for anew).
  mutating func replace(at position: Int, with entry: Entry, relisting taken: Set<String>) {
    let old = self[position].waiting
    bytes += entry.sourceRange.count - self[position].sourceRange.count
    storage[position - removed] = entry
    for label in taken where entry.waiting.contains(label) { waitingByLabel[label, default: []].append(position) }
    if entry.waiting != old {
      for label in entry.waiting where !old.contains(label) && !taken.contains(label) {
        waitingByLabel[label, default: []].append(position)
      }
    }
  }

  private mutating func index(_ entry: Entry, at position: Int) {
    for label in entry.waiting { waitingByLabel[label, default: []].append(position) }
  }
}
