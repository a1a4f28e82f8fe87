/// What a stream has to say in its next update, and what it said in the last: the bookkeeping of
/// publishing, apart from the bookkeeping of the text.
struct UpdateOutbox: Sendable {
  /// Blocks committed since the last update.
  var committed: [MarkdownStreamBlock] = []
  /// Whether the held blocks changed other than by appending (the next update lists them all).
  var heldChanged = false
  /// How many held blocks the consumer has been shown since they were last listed whole (-1:
  /// none shown while the tail was off; the next shown update lists them all).
  var shownHeldCount = 0
  /// Footnote numbering through the committed and the held blocks (held blocks show numbers too).
  var heldFootnotes = FootnoteNumbering.Overlay()
  /// Settled parts of the open long block not yet sent.
  var newSettled: [MarkdownStreamSettledPart] = []
  /// The settled revision the last shown tail carried (-1: none yet).
  var sentRevision = -1
  /// The tail of the last update (an update that adds no character shows it again).
  var lastTail = MarkdownStreamTail.empty
  /// The serial of the last tail made (``MarkdownStreamTail/serial``).
  var tailSerial = 0
  /// The serial of the last empty tail made for an open part of sure link definitions (0: none).
  var hiddenDefinitionsSerial = 0
  /// What the last tail weighs (``RefreshSchedule/weight(of:)``): set for each tail made, kept as
  /// words grow one; 0 while no tail is shown.
  var tailWeight = 0
  /// The received length when the tail was last healed.
  var healedEnd = 0
  /// Whether the last tail may grow by plain text without a heal (``PlainTextExtension``): its
  /// received length then, else nil.
  var extendableEnd: Int?
  /// The line of the healed text the last tail's last line was.
  var extendableLine = 0
  /// Whether the heal of the last tail hid text (a footnote reference whose definition has not
  /// arrived): its last text must then end where its block does, by the nodes' positions.
  var extendableHidesText = false
  /// Where the last tail, an open long fence's line without a parse (``OpenFenceCode``), found
  /// that line: where the fence's settled lines ended, where the line starts and where the text
  /// shown ends. Nil for any other tail.
  var shownFenceLine: (settledEnd: Int, lineStart: Int, end: Int)?
  /// The open paragraph the last heal found: where its content starts in the received text,
  /// where the open part and the last line started then (``StreamHealer/Healed/paragraphStart``),
  /// and where the last line ended, its block settled (``PlainTextExtension/isSettled(line:)``).
  var openParagraph: (start: Int, openStart: Int, lineStart: Int, lineEnd: Int)?
  /// The destination of a link still arriving at the end of the last tail's heal, when bytes
  /// that continue it change nothing shown (``OpenDestination``).
  var openDestination: OpenDestination?
  /// The clean point on the open paragraph's last line, when one is known (``TailCheckpoint``).
  var checkpoint: TailCheckpoint?
  /// After a failed attempt at a clean point on the line that starts at `checkpointRetryLine`,
  /// the received length from which the next attempt is made.
  var checkpointRetry = 0
  var checkpointRetryLine = -1
  /// The answers of the healer's probes for where the open paragraph's inline content starts.
  var inlineStartProbes = InlineStartProbes()
  /// The context (preambles, long block heads) parsed during this update, added up.
  var lookback = 0
}
