/// What `export` writes (`--to`), parsed once from the command line.
enum ExportFormat: String, CaseIterable, Sendable {
  /// The self-contained web page.
  case html
  /// The transcript: day separators, speakers and states, as assistive technology reads it.
  case transcript
  /// The Copy/Share plain text of every turn.
  case plain
  /// The thread as markdown.
  case markdown
}
