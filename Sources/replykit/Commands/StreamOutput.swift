import ChatEngine
import ReplyMarkdown

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a streaming reply to standard output: JSON frames, a pipe (committed parts as they
/// commit, the rest at the end), or a terminal's live region.
struct StreamOutput {
  let format: OutputFormat
  let frames: Bool
  var stream: MarkdownStream
  var html: MarkdownStreamHTMLRenderer
  var ansi: MarkdownStreamANSIRenderer
  var plain = MarkdownStreamPlainRenderer()
  let live: Bool
  private var writtenHTML = 0
  private var writtenLines = 0
  private var terminal = TerminalRegion()

  init(
    format: OutputFormat, frames: Bool, stream: MarkdownStream, html: MarkdownStreamHTMLRenderer,
    ansi: MarkdownStreamANSIRenderer, live: Bool
  ) {
    self.format = format
    self.frames = frames
    self.stream = stream
    // Into a pipe only committed output is written before the end: no tail is needed.
    self.stream.showsTail = frames || live
    // Into a pipe what is written stays written: blocks that a later definition could change
    // wait until the end, so the output equals `render`.
    if !self.stream.showsTail { self.stream.referencePolicy = .holdUntilFinish }
    self.html = html
    self.ansi = ansi
    self.live = live
  }

  mutating func feed(_ bytes: ArraySlice<UInt8>) {
    let update = stream.feed(bytes: bytes)
    show(update, committing: consume(update), final: false)
  }

  /// Applies the final update. Into a pipe, throws instead of writing the rest when the final
  /// output does not start with what was written (what was written is then not `render`'s output;
  /// never expected).
  mutating func finish() throws {
    let update = stream.finish()
    let newlyCommitted = consume(update)
    if !frames && !live && rewroteCommitted {
      // The one known cause: every bracket is charged the reply's longest definition, which may
      // come after links were written (see docs/streaming.md).
      let kinds = InputGuard.apply(stream.text, options: stream.options).diagnostics.map(\.kind)
      throw CLIError.failure(
        kinds.contains(.referenceExpansion) ? Self.lateReferenceBudgetMessage : Self.rewroteMessage)
    }
    show(update, committing: newlyCommitted, final: true)
  }

  /// Whether the final update changed output committed before it (see
  /// ``MarkdownStreamHTMLRenderer/rewroteCommitted``).
  private var rewroteCommitted: Bool {
    switch format {
    case .ansi: ansi.rewroteCommitted
    case .plain: plain.rewroteCommitted
    case .html: html.rewroteCommitted
    }
  }

  static let lateReferenceBudgetMessage =
    "reference links passed their budget (1048576 bytes copied from definitions) only with a "
    + "definition that came after links already written, so what was written differs from what "
    + "'replykit render' writes; 'replykit render' of the same input gives the exact output"

  static let rewroteMessage =
    "the output written before the end differs from the final rendering, so it is not what "
    + "'replykit render' writes (a fault in ReplyKit: please report it with the input); "
    + "'replykit render' of the same input gives the exact output"

  /// Ends a live display that will get no more text (an error, a signal): the tail is written out
  /// whole below the committed lines, its top too when it was taller than the screen, so the
  /// terminal keeps all that was shown, from the reply's start. Nothing for a pipe or frames.
  mutating func abandon() {
    guard live else { return }
    terminal.draw(newlyCommitted: ansi.tailLines, tail: [], final: true)
  }

  /// The column the cursor was in when the live display started (see
  /// ``TerminalRegion/originColumn``).
  var startColumn: Int {
    get { terminal.originColumn }
    set { terminal.originColumn = newValue }
  }

  /// Clears a live display before the program stops (Ctrl-Z); nothing for a pipe or frames.
  mutating func suspend() {
    guard live else { return }
    terminal.clear()
  }

  /// Draws the tail of a live display again after the program was continued, from where the
  /// cursor is now.
  mutating func resume() {
    guard live else { return }
    terminal.draw(newlyCommitted: [], tail: ansi.tailLines, final: false)
  }

  /// Applies an update to the consumer of the format; returns the terminal lines it committed.
  private mutating func consume(_ update: MarkdownStreamUpdate) -> [String] {
    switch format {
    case .ansi: return ansi.apply(update)
    case .plain: plain.apply(update)
    case .html: html.apply(update)
    }
    return []
  }

  /// Writes what an update changed: a frame, the live region, or into a pipe what committed.
  private mutating func show(_ update: MarkdownStreamUpdate, committing newlyCommitted: [String], final: Bool) {
    if frames {
      writeFrame(bytes: update.receivedBytes, final: final)
    } else if live {
      // Only what this update committed, never the whole display: the cost of an update stays
      // that of its change.
      terminal.draw(newlyCommitted: newlyCommitted, tail: ansi.tailLines, final: final)
    } else {
      writePipe(final: final)
    }
  }

  /// Committed output as it commits; everything at the end.
  private mutating func writePipe(final: Bool) {
    switch format {
    case .html:
      let end = final ? html.utf8Count : html.committedLength
      if end > writtenHTML {
        html.utf8(writtenHTML..<end).withUnsafeBufferPointer { StandardIO.writeShown($0) }
        writtenHTML = end
      }
    case .ansi, .plain:
      let lines = format == .ansi ? ansi.committedLines : plain.committedLines
      if lines.count > writtenLines {
        var out = ""
        for line in lines[writtenLines...] { out += line + "\n" }
        // Terminal text is safe as rendered; plain text shows its control characters on a terminal.
        if format == .ansi { StandardIO.write(out) } else { StandardIO.writeShown(out) }
        writtenLines = lines.count
      }
    }
  }

  /// `text` as a JSON string with every control character escaped: C0 (as JSON requires), and DEL
  /// and C1 too (JSON allows them raw), so a frame piped on to a terminal drives nothing there.
  static func frameQuoted(_ text: String) -> String {
    let quoted = jsonQuoted(text)
    guard quoted.unicodeScalars.contains(where: { (0x7F...0x9F).contains($0.value) }) else { return quoted }
    var out = String.UnicodeScalarView()
    for scalar in quoted.unicodeScalars {
      if (0x7F...0x9F).contains(scalar.value) {
        // One scalar at a time: `append(contentsOf:)` on a scalar view copies the whole view.
        for escaped in "\\u00\(String(scalar.value, radix: 16))".unicodeScalars { out.append(escaped) }
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  private func writeFrame(bytes: Int, final: Bool) {
    let display: String
    switch format {
    case .ansi: display = ansi.text
    case .plain: display = plain.text.isEmpty ? "" : plain.text + "\n"
    case .html: display = html.html
    }
    var line = "{\"bytes\": \(bytes), \"display\": " + Self.frameQuoted(display)
    if final { line += ", \"final\": true" }
    StandardIO.writeShown(line + "}\n")
  }
}
