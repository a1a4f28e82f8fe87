/// When an update re-parses a large open part: the rule that keeps the total work linear even
/// when one block grows without end (a 40 KB paragraph, a list nested a thousand levels deep).
///
/// An open part of up to ``threshold`` bytes is parsed (and its tail healed) on every update
/// that brings new text. A larger one is parsed again only once the text that arrived since its
/// last parse reaches an eighth of its size; in between, updates show the last healed tail and
/// close nothing new. Each parse of `n` bytes then pays for at least `n / 8` new bytes, so the
/// parsing per received byte stays bounded (about 8 parses of each byte, plus the threshold per
/// update), however long the block grows. Nothing is lost by waiting: the next parse closes and
/// shows everything that arrived, and ``MarkdownStream/finish()`` parses all that is left; plain
/// words that continue the last line still show at once (``PlainTextExtension`` needs no parse).
///
/// The threshold is what one update may parse for its open part: 2 KB keeps the slowest updates
/// of a mixed reply near the cost of an ordinary one (at 8 KB, open quotes and list items of a
/// few KB were re-parsed whole on every chunk and made up over a third of all parsing), at the
/// price of an open part over 2 KB showing markup-bearing text in steps of an eighth of its size.
enum RefreshSchedule {
  /// Open parts up to this size (2 KB) are parsed on every update.
  static let threshold = 2 * 1024

  /// Whether an open part of `openBytes`, of which `newBytes` arrived since its last parse, is
  /// parsed on this update.
  static func isDue(openBytes: Int, newBytes: Int) -> Bool {
    openBytes <= threshold || newBytes * 8 >= openBytes
  }
}
