/// Makes untrusted markdown safe to hand to cmark-gfm: a linear pre-scan that enforces
/// ``InputLimits`` and reports what it changed.
///
/// Below every limit the text is returned unchanged (the same `String`), so the guard never changes
/// the rendering of ordinary replies or of any spec example. Past a limit only the offending syntax
/// is turned into literal text, mostly by inserting a backslash before a marker or delimiter, or, for
/// tables, by inserting a blank line; each kind of change is reported once as a
/// ``MarkdownDiagnostic`` with the number of places changed.
///
/// The result is deterministic: it depends only on the text, the parse options and the limits.
/// A document parsed from changed text counts its source lines as the input's (an inserted line
/// break is not counted); its columns are the changed text's.
///
/// - Complexity: O(n) time and memory in the length of the text.
public enum InputGuard {
  /// Checks `markdown` against `limits` for parsing with `options`. A negative limit acts as 0.
  public static func apply(
    _ markdown: String, options: ParseOptions = .github, limits: InputLimits = .default
  ) -> GuardedInput {
    apply(markdown, options: options, limits: limits, paragraphLead: nil)
  }

  /// ``apply(_:options:limits:)`` for text whose paragraph on line `paragraphLead.line` began
  /// `paragraphLead.bytes` bytes before the text (see ``GuardScanner/paragraphLead``).
  static func apply(
    _ markdown: String, options: ParseOptions, limits: InputLimits, paragraphLead: (line: Int, bytes: Int)?
  ) -> GuardedInput {
    if limits.isUnlimited { return GuardedInput(text: markdown, diagnostics: []) }
    var text = markdown
    let found = text.withUTF8 { whole -> (edits: [GuardEdit], diagnostics: [MarkdownDiagnostic])? in
      // cmark-gfm drops a byte order mark that starts the text before it reads any line, so the
      // first line is scanned after it (else its markers would go unseen, and unlimited).
      let skipped = whole.starts(with: Self.byteOrderMark) ? Self.byteOrderMark.count : 0
      let buffer = UnsafeBufferPointer(rebasing: whole[skipped...])
      var scanner = GuardScanner(bytes: buffer, options: options, limits: limits.nonNegative)
      scanner.paragraphLead = paragraphLead
      scanner.run()
      guard !scanner.edits.isEmpty else { return nil }
      let edits = scanner.orderedEdits().map { GuardEdit(offset: $0.offset + skipped, insertion: $0.insertion) }
      return (edits, scanner.diagnosticList())
    }
    guard let found else { return GuardedInput(text: markdown, diagnostics: []) }
    // `withUTF8` left `text` in contiguous UTF-8, where the edits are made by offset.
    var guarded = GuardedInput(text: GuardEdit.applying(found.edits, to: text), diagnostics: found.diagnostics)
    let breaks = found.edits.filter { $0.insertion == .newline }.map(\.offset)
    if !breaks.isEmpty { guarded.linesBrokenBefore = text.withUTF8 { Self.lines(of: breaks, in: $0) } }
    return guarded
  }

  /// The 1-based lines that the byte offsets `offsets` (in order) are on; a line ends at `\n`,
  /// `\r\n` or `\r`.
  ///
  /// - Complexity: O(the last offset).
  static func lines(of offsets: [Int], in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
    var lines: [Int] = []
    lines.reserveCapacity(offsets.count)
    var line = 1
    var index = 0
    for offset in offsets {
      while index < offset && index < bytes.count {
        if bytes[index] == ASCII.newline {
          line += 1
        } else if bytes[index] == ASCII.carriageReturn, index + 1 >= bytes.count || bytes[index + 1] != ASCII.newline {
          line += 1
        }
        index += 1
      }
      lines.append(line)
    }
    return lines
  }

  /// U+FEFF in UTF-8: cmark-gfm drops it where it starts the text, and only there.
  static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}
