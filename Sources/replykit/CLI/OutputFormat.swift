/// What `render` and `stream` write (`--to`), parsed once from the command line.
enum OutputFormat: String, CaseIterable, Sendable {
  /// HTML identical to cmark-gfm's (safe unless `--unsafe`).
  case html
  /// The Copy/Share plain text.
  case plain
  /// Terminal text: wrapped, styled, control characters never passed through.
  case ansi
}
