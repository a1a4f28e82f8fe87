/// Task items checked as the received text checks them, not as the healed text does.
///
/// cmark-gfm's tasklist extension checks an item when the line it opens on holds `[x]` or `[X]`
/// anywhere, not only as its marker (`- [ ] see [x]` renders checked, and so do we, to equal
/// cmark-gfm). A heal writes on the last lines: the closer of a pending link made `- [ ] a [x`
/// read `[x]`, and the box showed checked until the next byte unchecked it (the fast-path sweep:
/// a shortcut that kept the box as it was disagreed with the parse). So an item whose line the
/// heal changed is checked when its received line holds `[x]` or `[X]`: what the reply, ended
/// there, would show.
enum ReceivedTaskStates {
  /// `document`, parsed from `healed`, a heal of `received`, with the task state of each item on
  /// a line the heal changed set from that line as received.
  ///
  /// - Complexity: O(n) in the texts; a pass over `document` only where a changed line holds a
  ///   check.
  static func apply(_ document: MarkdownDocument, healed: [UInt8], received: [UInt8]) -> MarkdownDocument {
    // The lines before the first byte the heal changed are as received.
    let same = commonPrefixLength(healed, received)
    guard same < healed.count || same < received.count else { return document }
    let lineStart = SourceLines.lineStart(healed, before: same)
    // An item's state can change only where the changed lines hold a check, as healed or received.
    guard holdsCheck(healed[lineStart...]) || holdsCheck(received[min(lineStart, received.count)...]) else {
      return document
    }
    let firstChangedLine = SourceLines.lineStarts(healed, to: lineStart).count
    var nodes = document.nodes
    var changed = false
    for index in nodes.indices {
      guard case .item(let task?) = nodes[index].kind, let line = nodes[index].range?.start.line,
        line >= firstChangedLine
      else { continue }
      let checked = Self.line(line, of: received).map(holdsCheck) ?? false
      guard checked != (task == .checked) else { continue }
      nodes[index].kind = .item(task: checked ? .checked : .unchecked)
      changed = true
    }
    guard changed else { return document }
    return MarkdownDocument(nodes: nodes, options: document.options, diagnostics: document.diagnostics)
  }

  /// How many bytes `a` and `b` share from their start.
  static func commonPrefixLength(_ a: [UInt8], _ b: [UInt8]) -> Int {
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        let count = min(a.count, b.count)
        var index = 0
        while index < count && a[index] == b[index] { index += 1 }
        return index
      }
    }
  }

  /// Whether `line` holds `[x]` or `[X]`.
  static func holdsCheck(_ line: ArraySlice<UInt8>) -> Bool {
    line.withUnsafeBufferPointer { bytes in
      guard bytes.count >= 3 else { return false }
      for index in 0..<(bytes.count - 2) where bytes[index] == ASCII.openBracket {
        if bytes[index + 1] | 0x20 == ASCII.lowercaseX && bytes[index + 2] == ASCII.closeBracket { return true }
      }
      return false
    }
  }

  /// Line `number` (1-based, as cmark-gfm counts: after `\n`, `\r\n` or `\r`) of `text`, without
  /// its line break; nil past the last.
  static func line(_ number: Int, of text: [UInt8]) -> ArraySlice<UInt8>? {
    let starts = SourceLines.lineStarts(text)
    guard number >= 1 && number <= starts.count else { return nil }
    var line = text[starts[number - 1]..<(number < starts.count ? starts[number] : text.count)]
    while let last = line.last, last == ASCII.newline || last == ASCII.carriageReturn { line = line.dropLast() }
    return line
  }
}
