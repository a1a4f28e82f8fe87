/// A visitor of a ``MarkdownDocument``: it is told when the walk enters and exits each node, and
/// may skip a node's children. The renderers are written this way; a custom one (Slack mrkdwn,
/// BBCode) is a switch in ``enter(_:in:)`` and another in ``exit(_:in:)``.
///
/// ```swift
/// struct BBCode: MarkdownWalker {
///   var out = ""
///   mutating func enter(_ index: Int, in walk: MarkdownWalk) -> MarkdownWalk.Action {
///     switch walk.document.nodes[index].kind {
///     case .text(let text): out += text
///     case .strong: out += "[b]"
///     case .image: return .skipChildren
///     default: break
///     }
///     return .visitChildren
///   }
///   mutating func exit(_ index: Int, in walk: MarkdownWalk) {
///     if case .strong = walk.document.nodes[index].kind { out += "[/b]" }
///   }
/// }
/// var bbcode = BBCode()
/// document.walk(&bbcode)
/// ```
///
/// Both methods have default implementations that do nothing (and visit children), so a walker
/// implements only what it needs. Noncopyable walkers are welcome.
public protocol MarkdownWalker: ~Copyable {
  /// Called when the walk enters the node at `index`, before its children; `walk` gives its
  /// ancestors and lists. Return ``MarkdownWalk/Action/skipChildren`` to go straight to its exit.
  mutating func enter(_ index: Int, in walk: MarkdownWalk) -> MarkdownWalk.Action
  /// Called when the walk leaves the node at `index`, after its children (or at once for a leaf
  /// or a skipped node); `walk` gives its ancestors and lists.
  mutating func exit(_ index: Int, in walk: MarkdownWalk)
}

extension MarkdownWalker where Self: ~Copyable {
  /// Visits the children of every node.
  public mutating func enter(_ index: Int, in walk: MarkdownWalk) -> MarkdownWalk.Action { .visitChildren }
  /// Does nothing.
  public mutating func exit(_ index: Int, in walk: MarkdownWalk) {}
}

extension MarkdownDocument {
  /// Walks the whole document with `walker`, root first: ``MarkdownWalker/enter(_:in:)`` and
  /// ``MarkdownWalker/exit(_:in:)`` for every node in document order.
  ///
  /// - Complexity: O(n) in the number of nodes, plus what the walker does; no recursion, so any
  ///   depth walks on any stack.
  public func walk<Walker: MarkdownWalker & ~Copyable>(_ walker: inout Walker) {
    var walk = MarkdownWalk(self)
    Self.drive(&walk, &walker)
  }

  /// Walks the subtree of the node at `index` with `walker`, starting with that node, with its
  /// ancestors and lists known as in a walk of the whole document.
  ///
  /// - Precondition: `index` is a valid node index.
  /// - Complexity: O(k) in the nodes of the subtree, plus finding the node's ancestors (see
  ///   ``MarkdownWalk/init(_:subtree:)``).
  public func walk<Walker: MarkdownWalker & ~Copyable>(_ walker: inout Walker, subtree index: Int) {
    var walk = MarkdownWalk(self, subtree: index)
    Self.drive(&walk, &walker)
  }

  package static func drive<Walker: MarkdownWalker & ~Copyable>(_ walk: inout MarkdownWalk, _ walker: inout Walker) {
    while let event = walk.next() {
      switch event {
      case .enter(let index):
        if walker.enter(index, in: walk) == .skipChildren { walk.skipChildren() }
      case .exit(let index):
        walker.exit(index, in: walk)
      }
    }
  }
}
