/// An iterative enter/exit walk over a ``MarkdownDocument`` or one node's subtree, in document
/// order, with the open ancestors and lists of the current node at hand.
///
/// Every node gives an ``Event/enter(_:)`` and, after its children, an ``Event/exit(_:)``; a leaf
/// gives the two in a row. Call ``skipChildren()`` right after an enter to go straight to that
/// node's exit (an image whose alt text is written whole, a table laid out at once).
///
/// ```swift
/// var walk = MarkdownWalk(document)
/// while let event = walk.next() {
///   guard case .enter(let index) = event else { continue }
///   if case .image = document.nodes[index].kind { walk.skipChildren() }
/// }
/// ```
///
/// The walk keeps an explicit stack instead of recursing, so a document 100,000 levels deep walks
/// on a 512 KB stack. For a walk driven by callbacks, see ``MarkdownWalker``.
///
/// - Complexity: O(n) in the nodes of the subtree for the whole walk, O(1) amortised per event;
///   memory O(depth). Starting below the root first finds the start's ancestors in
///   O(depth + the siblings passed on the way down).
public struct MarkdownWalk: IteratorProtocol, Sendable {
  /// One step of a walk: a node entered, or a node exited after its children.
  public enum Event: Sendable, Hashable {
    /// The walk reached the node at this index; its children come next.
    case enter(Int)
    /// The walk is done with the node at this index and its subtree.
    case exit(Int)
  }

  /// What a ``MarkdownWalker`` wants after entering a node.
  public enum Action: Sendable, Hashable {
    /// Walk the node's children, then exit it.
    case visitChildren
    /// Exit the node at once, without walking its children.
    case skipChildren
  }

  /// The document being walked.
  public let document: MarkdownDocument
  /// The indices of the open ancestors of the current node, the root first; `ancestors.last` is
  /// its parent. During an event for node `i`, `i` itself is not included.
  public private(set) var ancestors: [Int]
  /// The lists among ``ancestors``, outermost first, each with the item being walked in it.
  public private(set) var lists: [MarkdownListContext]

  /// How many ancestors the starting node has; they are never exited.
  private let base: Int
  /// The next node to enter.
  private var position: Int
  /// One past the last node of the walk.
  private let end: Int
  /// The node just entered, whose children or exit come next; -1 when none.
  private var entered = -1
  private var skipsEntered = false

  /// Creates a walk over the whole document, starting with the root.
  public init(_ document: MarkdownDocument) {
    self.document = document
    self.ancestors = []
    self.lists = []
    self.base = 0
    self.position = 0
    self.end = document.nodes.first?.subtreeEnd ?? 0
  }

  /// Creates a walk over the subtree of the node at `index`, starting with that node; the walk
  /// knows the node's ancestors and lists as a walk from the root would.
  ///
  /// - Precondition: `index` is a valid node index of `document`.
  /// - Complexity: O(depth + the siblings passed on the way down from the root); O(1) for a
  ///   top-level block.
  public init(_ document: MarkdownDocument, subtree index: Int) {
    precondition(document.nodes.indices.contains(index), "node index \(index) is out of range")
    let depth = document.nodes[index].depth
    let ancestors = depth == 0 ? [] : depth == 1 ? [0] : document.ancestors(of: index)
    self.init(document, from: index, to: document.nodes[index].subtreeEnd, ancestors: ancestors)
  }

  /// Creates a walk over the consecutive siblings `start..<end`, whose ancestors are `ancestors`
  /// (root first).
  ///
  /// - Complexity: O(depth + the earlier siblings of the path's items inside lists).
  package init(_ document: MarkdownDocument, from start: Int, to end: Int, ancestors: [Int]) {
    self.document = document
    self.position = start
    self.end = end
    self.ancestors = ancestors
    self.base = ancestors.count
    var lists: [MarkdownListContext] = []
    for (level, ancestor) in ancestors.enumerated() {
      guard case .list(let info) = document.nodes[ancestor].kind else { continue }
      let item = level + 1 < ancestors.count ? ancestors[level + 1] : start
      var walked = 0
      var child = ancestor + 1
      while child < item {
        walked += 1
        child = document.nodes[child].subtreeEnd
      }
      // Entering `start` itself counts its own item; an item above it is already counted.
      if item == start { walked -= 1 }
      lists.append(MarkdownListContext(index: ancestor, info: info, nesting: lists.count, itemPosition: walked))
    }
    self.lists = lists
  }

  /// The parent of the current node, or `nil` for the root.
  public var parent: Int? { ancestors.last }

  /// The innermost list among the current node's ancestors: for an item, its own list.
  public var list: MarkdownListContext? { lists.last }

  /// After ``Event/enter(_:)``, skips the entered node's children: the next event is its exit.
  /// Has no effect at any other time.
  public mutating func skipChildren() {
    skipsEntered = entered >= 0
  }

  /// The next event, or `nil` when the walk is over.
  public mutating func next() -> Event? {
    if entered >= 0 {
      let node = entered
      entered = -1
      let subtreeEnd = document.nodes[node].subtreeEnd
      if skipsEntered || subtreeEnd == node + 1 {
        skipsEntered = false
        position = subtreeEnd
        return .exit(node)
      }
      ancestors.append(node)
      if case .list(let info) = document.nodes[node].kind {
        lists.append(MarkdownListContext(index: node, info: info, nesting: lists.count, itemPosition: -1))
      }
      position = node + 1
    }
    if ancestors.count > base, let top = ancestors.last, document.nodes[top].subtreeEnd <= position {
      ancestors.removeLast()
      if let last = lists.last, last.index == top { lists.removeLast() }
      return .exit(top)
    }
    guard position < end else { return nil }
    entered = position
    if let last = lists.last, last.index == ancestors.last, case .item = document.nodes[position].kind {
      lists[lists.count - 1].itemPosition += 1
    }
    return .enter(position)
  }
}

/// An open list during a ``MarkdownWalk``: which list it is, how it is formatted, and which of its
/// items is being walked.
public struct MarkdownListContext: Sendable, Hashable {
  /// The index of the list node.
  public let index: Int
  /// The list's type, start number, delimiter and tightness.
  public let info: MarkdownNode.ListInfo
  /// How many lists enclose this one: 0 for an outermost list (picks the bullet of a nesting level).
  public let nesting: Int
  /// The position of the item being walked among the list's items, from 0; -1 before the first.
  public internal(set) var itemPosition: Int

  /// Whether the list is tight: its paragraphs are not wrapped and no blank lines separate items.
  public var isTight: Bool { info.isTight }

  /// The number of the item being walked: the list's start plus the item's position for ordered
  /// lists, the position from 1 for bullet lists.
  public var itemNumber: Int { (info.type == .ordered ? info.start : 1) + itemPosition }
}
