/// The stream's shortcut for a link whose destination is still arriving (`[text](https://exa`):
/// the heal cuts such a link at its `]` and shows it pending, its text and nothing of the
/// destination, so bytes that continue the destination and keep it incomplete change nothing
/// shown. While they arrive, the update keeps the last tail, with no heal and no parse. Links with
/// long addresses are common in replies (citations), and their address arrives in several chunks.
///
/// The shortcut is taken only where a heal could not answer differently, which is checked, not
/// assumed:
/// - the last tail came from a heal of the open part whose inline scan stopped at that link's
///   incomplete destination and cut at its `]`, and whose parse stood (no line held, the open
///   block kept its kind: ``StreamHealer/Healed/openDestination``); the scan reads nothing past
///   the `(`, so the healed text and its parse depend only on the bytes before it and on the
///   destination being incomplete;
/// - every byte from the destination's start to the end of the received text continues it
///   (``continues(_:)``): no blank, line break or control character (which end a destination or
///   the line), no parenthesis (whose nesting ends it), no `<`, `>` or backslash (another form,
///   an escape), and nothing the holds before the scan read anywhere on the last line — no `|`
///   (a table row), no brackets (a task item's `[x]`, a label), no quote (a definition's title),
///   no backtick;
/// - no block settled or was held since (the update's structure did not change).
///
/// A differential test compares the shortcut with a full heal at every update
/// (`StreamingFastPathTests`).
struct OpenDestination: Sendable {
  /// The tail (``MarkdownStreamTail/serial``) whose heal cut at the link: the shortcut holds only
  /// while it is the last tail.
  let serial: Int
  /// Where the destination starts in the received text (after its `(`).
  let start: Int
  /// How far the received text has been read: every byte from ``start`` to here continues the
  /// destination. Each update reads only what arrived since.
  var checkedEnd: Int

  /// The destination that starts at `start` in `received` for the tail `serial`, when every byte
  /// received from there on continues it; nil otherwise.
  ///
  /// - Complexity: O(n) in the destination's bytes received so far.
  init?(serial: Int, start: Int, received: ArraySlice<UInt8>) {
    guard start >= received.startIndex, start <= received.endIndex, Self.continues(received[start...]) else {
      return nil
    }
    self.serial = serial
    self.start = start
    checkedEnd = received.endIndex
  }

  /// Whether `byte` continues an incomplete destination without changing what a heal shows (see
  /// the type's summary).
  @inline(__always) static func continues(_ byte: UInt8) -> Bool {
    guard byte > ASCII.space, byte != 0x7F else { return false }
    switch byte {
    case ASCII.openParenthesis, ASCII.closeParenthesis, ASCII.lessThan, ASCII.greaterThan, ASCII.backslash,
      ASCII.openBracket, ASCII.closeBracket, ASCII.pipe, ASCII.quote, ASCII.apostrophe, ASCII.backtick:
      return false
    default:
      return true
    }
  }

  /// Whether every byte of `bytes` continues the destination.
  static func continues(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.allSatisfy { continues($0) }
  }
}
