/// What one update of a ``MarkdownStream`` cost and holds: the figures its bound is stated in.
///
/// The bound (see `docs/streaming.md`): ``parsedBytes`` is at most a small multiple of
/// ``openBytes`` plus ``lookbackBytes`` plus the ``MarkdownStream/ReferencePolicy`` budget, and
/// ``heldBytes`` never exceeds that budget. Tests and the benchmark assert these counts; no time
/// is asserted.
public struct MarkdownStreamStatistics: Sendable, Hashable {
  /// UTF-8 bytes handed to cmark-gfm during this update, every parse counted: the open part,
  /// the definitions and block heads parsed with it, the healer's parses, re-parsed held blocks.
  public var parsedBytes: Int
  /// Source bytes of the open top-level block as this update began, the chunk included:
  /// everything after the closed blocks, which is the most an update re-parses (the update that
  /// closes a long fenced code block, list or table parses it whole once; the others parse only
  /// its unsettled remainder).
  public var openBytes: Int
  /// Bytes of context parsed in this update, added up over its parses: the definitions preamble
  /// each parse started with (bounded by the labels the parsed text uses) and the head of a long
  /// block (a fence's opening line, a table's header and delimiter row).
  public var lookbackBytes: Int
  /// Source bytes of the held blocks after this update.
  public var heldBytes: Int
  /// Source bytes of the committed prefix after this update; it never decreases.
  public var committedBytes: Int

  /// Creates statistics.
  public init(parsedBytes: Int, openBytes: Int, lookbackBytes: Int, heldBytes: Int, committedBytes: Int) {
    self.parsedBytes = parsedBytes
    self.openBytes = openBytes
    self.lookbackBytes = lookbackBytes
    self.heldBytes = heldBytes
    self.committedBytes = committedBytes
  }

  /// All zero.
  public static let zero = MarkdownStreamStatistics(
    parsedBytes: 0, openBytes: 0, lookbackBytes: 0, heldBytes: 0, committedBytes: 0)
}
