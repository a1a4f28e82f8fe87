/// Turns the open part of a streaming reply into a displayable document: holds back what the next
/// characters could still turn into something else, closes what is unclosed (innermost first), and
/// parses the result.
///
/// Holds never reach before the current line, except for a table header waiting for its delimiter
/// row. Nothing before `protectedLength` (complete context lines) is ever changed.
struct StreamHealer {
  /// How the open part's last line is read.
  enum Context {
    /// Markdown blocks (the general case, list items and table rows).
    case blocks
    /// The last line is inside an open fenced code block with this fence.
    case fencedCode(fence: UInt8, length: Int)
  }

  let options: ParseOptions

  /// The healed document and the indices of its links whose destination has not arrived.
  struct Healed {
    var document: MarkdownDocument
    var pendingLinks: [Int]
  }

  func heal(_ input: [UInt8], protectedLength: Int, context: Context) -> Healed {
    var text = input
    if text.last == SourceLines.carriageReturn { text.removeLast() }
    Self.trimGrowableGrapheme(&text, floor: protectedLength)
    var lineStart = SourceLines.lineStart(text, before: text.count, floor: protectedLength)
    switch context {
    case .fencedCode(let fence, _):
      if lineStart < text.count && Self.isFenceCloserPrefix(text[lineStart...], fence: fence) {
        text.removeSubrange(lineStart...)
      }
      return finish(text)
    case .blocks:
      if lineStart < text.count && Self.holdsLine(text[lineStart...]) { text.removeSubrange(lineStart...) }
    }
    var document = MarkdownDocument(String(decoding: text, as: UTF8.self), options: options)
    var lines = SourceLines.lineStarts(text)
    var leaf = OpenLeaf.find(in: document, text: text, lineStarts: lines)

    // A table header is held until its delimiter row is complete.
    if let found = leaf, found.kind == .paragraph {
      lineStart = SourceLines.lineStart(text, before: text.count, floor: protectedLength)
      let lastLine = text[lineStart...]
      var drop: Int?
      if !lastLine.isEmpty && Self.hasUnescapedPipe(lastLine) {
        drop = lineStart
        if Self.isDelimiterRowCandidate(lastLine) && lineStart > protectedLength {
          let previous = SourceLines.lineStart(text, before: lineStart - 1, floor: protectedLength)
          if previous >= found.start - 0 && Self.hasUnescapedPipe(text[previous..<lineStart]) { drop = previous }
        }
      } else if lastLine.isEmpty && lineStart > protectedLength {
        let previous = SourceLines.lineStart(text, before: lineStart - 1, floor: protectedLength)
        if Self.hasUnescapedPipe(text[previous..<lineStart]) { drop = previous }
      }
      if let drop, drop >= protectedLength {
        text.removeSubrange(drop...)
        document = MarkdownDocument(String(decoding: text, as: UTF8.self), options: options)
        lines = SourceLines.lineStarts(text)
        leaf = OpenLeaf.find(in: document, text: text, lineStarts: lines)
      }
    }

    if let open = leaf, open.kind == .html, open.isOpen {
      // A tag still arriving at the end of a raw HTML block is hidden.
      let lineStart = max(SourceLines.lineStart(text, before: text.count, floor: protectedLength), open.start)
      if let less = text[lineStart...].lastIndex(of: UInt8(ascii: "<")), !text[less...].contains(UInt8(ascii: ">")) {
        text.removeSubrange(less...)
        while let last = text.last, last == 0x20 || last == 0x09, text.count > protectedLength { text.removeLast() }
        return finish(text)
      }
    }
    guard let open = leaf, open.isInline, open.isOpen else { return finish(text, document: document) }
    let parsedText = text
    var contentEnd = open.contentEnd
    let suffix = Array(text[contentEnd...])
    text.removeSubrange(contentEnd...)
    var closers: [UInt8] = []
    for _ in 0..<16 {
      if open.trimsTrailing { contentEnd = Self.trimTrailingMarkers(&text, floor: max(open.start, protectedLength)) }
      let scanner = InlineHealScanner(
        bytes: text, start: open.start, end: contentEnd,
        doubleTildeOnly: options.contains(.strikethroughDoubleTilde), strikethrough: options.contains(.strikethrough))
      switch scanner.run() {
      case .cut(let position):
        text.removeSubrange(max(position, protectedLength)...)
        contentEnd = text.count
        continue
      case .heal(let truncateAt, let found):
        if let truncateAt { text.removeSubrange(max(truncateAt, protectedLength)...) }
        closers = found
      }
      break
    }
    text += closers
    text += suffix
    // A line reduced to list or quote markers shows nothing yet.
    let last = SourceLines.lineStart(text, before: text.count, floor: protectedLength)
    if last < text.count && Self.holdsLine(text[last...]) { text.removeSubrange(last...) }
    // Nothing to close or hold back: the first parse stands.
    return finish(text, document: text == parsedText ? document : nil)
  }

  private func finish(_ text: [UInt8], document: MarkdownDocument? = nil) -> Healed {
    let parsed = document ?? MarkdownDocument(String(decoding: text, as: UTF8.self), options: options)
    let endsWithLine = text.last == SourceLines.newline || text.last == SourceLines.carriageReturn
    return Self.postprocess(parsed, incompleteLastLine: !text.isEmpty && !endsWithLine, options: options)
  }

  /// Marks pending links, hides unresolved footnote references and drops the newline cmark adds
  /// after an incomplete last line of an open fenced code block.
  static func postprocess(_ parsed: MarkdownDocument, incompleteLastLine: Bool, options: ParseOptions) -> Healed {
    // Complete `[text]`, `[text][label]` whose label is not defined yet show as pending links.
    let (document, references) = PendingReferences.mark(parsed)
    var nodes = document.nodes
    var pending: [Int] = references
    let sentinel = String(decoding: InlineHealScanner.pendingDestination, as: UTF8.self)
    var lastFenced: Int?
    for index in nodes.indices {
      switch nodes[index].kind {
      case .link(let info) where info.destination == sentinel:
        pending.append(index)
        nodes[index].kind = .link(.init(destination: "", title: ""))
      case .text(let string) where options.contains(.footnotes) && containsFootnoteOpener(string):
        nodes[index].kind = .text(hidingFootnoteReferences(string))
      case .codeBlock(let info) where info.isFenced:
        lastFenced = index
      default: break
      }
    }
    if incompleteLastLine, let fenced = lastFenced, nodes[fenced].subtreeEnd == nodes.count,
      case .codeBlock(var info) = nodes[fenced].kind, info.code.hasSuffix("\n")
    {
      info.code.removeLast()
      nodes[fenced].kind = .codeBlock(info)
    }
    return Healed(document: MarkdownDocument(nodes: nodes, options: document.options), pendingLinks: pending.sorted())
  }

  /// Whether `string` holds `[^` (a byte scan: `String.contains(_:)` costs far more per call).
  static func containsFootnoteOpener(_ string: String) -> Bool {
    var copy = string
    return copy.withUTF8 { buffer in
      guard buffer.count > 1 else { return false }
      for index in 1..<buffer.count where buffer[index] == UInt8(ascii: "^") && buffer[index - 1] == UInt8(ascii: "[") {
        return true
      }
      return false
    }
  }

  /// `[^label]` left as text means its definition has not arrived: hide it until it does.
  static func hidingFootnoteReferences(_ string: String) -> String {
    var out = ""
    var rest = Substring(string)
    while let open = rest.firstRange(of: "[^") {
      out += rest[..<open.lowerBound]
      let after = rest[open.upperBound...]
      if let close = after.firstIndex(of: "]"), close > after.startIndex,
        !after[..<close].contains(where: { $0 == " " || $0 == "\n" || $0 == "[" })
      {
        rest = after[after.index(after: close)...]
      } else {
        out += "[^"
        rest = after
      }
    }
    return out + rest
  }

  // MARK: Line holds

  /// Whether the incomplete last line could still become a different block (see the README rules).
  static func holdsLine(_ line: ArraySlice<UInt8>) -> Bool {
    var bytes = Array(line)
    while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
    guard !bytes.isEmpty else { return false }
    // Only table pipes: an empty row (or a paragraph `|`) shows nothing useful yet.
    if bytes.contains(UInt8(ascii: "|")) && bytes.allSatisfy({ $0 == UInt8(ascii: "|") || $0 == 0x20 || $0 == 0x09 }) {
      return true
    }
    // Thematic break or setext underline candidates.
    if let first = bytes.first,
      [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "=")].contains(first),
      bytes.allSatisfy({ $0 == first || $0 == 0x20 || $0 == 0x09 })
    {
      let trimmed = Array(bytes.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed())
      let count = trimmed.filter { $0 == first }.count
      let spaced = trimmed.contains(0x20) || trimmed.contains(0x09)
      let settled = (first == UInt8(ascii: "-") || first == UInt8(ascii: "=")) && count >= 3 && !spaced
      return !settled
    }
    // Strip container markers: block quotes and list items.
    var rest = bytes[...]
    var strippedMarker = false
    while true {
      while let first = rest.first, first == 0x20 || first == 0x09 { rest = rest.dropFirst() }
      if rest.first == UInt8(ascii: ">") {
        rest = rest.dropFirst()
        strippedMarker = true
        continue
      }
      if let first = rest.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: "*")
      {
        let after = rest.dropFirst()
        if after.isEmpty { return true }
        if let next = after.first, next == 0x20 || next == 0x09 {
          rest = after
          strippedMarker = true
          continue
        }
      }
      let digits = rest.prefix { $0 >= 0x30 && $0 <= 0x39 }
      if !digits.isEmpty && digits.count <= 9 {
        let after = rest.dropFirst(digits.count)
        if after.isEmpty { return true }
        if let delimiter = after.first, delimiter == UInt8(ascii: ".") || delimiter == UInt8(ascii: ")") {
          let afterDelimiter = after.dropFirst()
          if afterDelimiter.isEmpty { return true }
          if let next = afterDelimiter.first, next == 0x20 || next == 0x09 {
            rest = afterDelimiter
            strippedMarker = true
            continue
          }
        }
      }
      break
    }
    while let first = rest.first, first == 0x20 || first == 0x09 { rest = rest.dropFirst() }
    if rest.isEmpty { return strippedMarker }
    // ATX heading with no text yet.
    let hashes = rest.prefix { $0 == UInt8(ascii: "#") }
    if !hashes.isEmpty && hashes.count <= 6 && rest.dropFirst(hashes.count).allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
      return true
    }
    // Fence opener: held until its info string line ends.
    if let first = rest.first, first == UInt8(ascii: "`") || first == UInt8(ascii: "~") {
      let run = rest.prefix { $0 == first }.count
      if run >= 3 {
        return first == UInt8(ascii: "~") || !rest.dropFirst(run).contains(UInt8(ascii: "`"))
      }
      // The start of a closing fence of a code block open inside a container (`> ``).
      if rest.dropFirst(run).allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return true }
    }
    // Nested hr / setext candidates after a marker, e.g. `- -`, `> ---`.
    if strippedMarker, let first = rest.first,
      first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "_")
        || first == UInt8(ascii: "="),
      rest.allSatisfy({ $0 == first || $0 == 0x20 || $0 == 0x09 })
    {
      return true
    }
    // A task item marker, a footnote or link reference definition still arriving.
    if rest.first == UInt8(ascii: "[") {
      let body = rest.dropFirst()
      if strippedMarker && body.count <= 2
        && body.allSatisfy({
          $0 == 0x20 || $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") || $0 == UInt8(ascii: "]")
        })
      {
        return true
      }
      // A label at the start of a line may still turn out to be a definition (which shows
      // nothing): held until the character after its `]` says otherwise.
      guard let close = body.firstIndex(of: UInt8(ascii: "]")) else { return true }
      let after = body[(close + 1)...]
      if after.isEmpty || after.first == UInt8(ascii: ":") { return true }
    }
    return false
  }

  static func isFenceCloserPrefix(_ line: ArraySlice<UInt8>, fence: UInt8) -> Bool {
    var rest = line.drop { $0 == 0x20 }
    guard line.count - rest.count <= 3, rest.first == fence else { return false }
    rest = rest.drop { $0 == fence }
    return rest.allSatisfy { $0 == 0x20 || $0 == 0x09 }
  }

  static func hasUnescapedPipe(_ line: ArraySlice<UInt8>) -> Bool {
    var escaped = false
    for byte in line {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "|") {
        return true
      }
    }
    return false
  }

  static func isDelimiterRowCandidate(_ line: ArraySlice<UInt8>) -> Bool {
    line.allSatisfy {
      $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ":") || $0 == 0x20 || $0 == 0x09
    }
  }

  // MARK: Trailing holds

  /// Removes trailing spaces, tabs, a backslash and runs of `* _ ~ `` ` `` (markers whose meaning
  /// depends on what follows); returns the new end.
  static func trimTrailingMarkers(_ text: inout [UInt8], floor: Int) -> Int {
    while text.count > floor, let last = text.last {
      switch last {
      case 0x20, 0x09, UInt8(ascii: "\\"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "`"):
        text.removeLast()
      default:
        return text.count
      }
    }
    return text.count
  }

  /// Removes a trailing grapheme that later scalars could still extend: emoji (ZWJ sequences,
  /// skin tones, keycaps, tags), regional indicators, variation selectors, combining marks and
  /// conjoining jamo. Other non-ASCII text (CJK, accented letters) is shown at once.
  static func trimGrowableGrapheme(_ text: inout [UInt8], floor: Int) {
    guard let last = text.last, last >= 0x80, text.count > floor else { return }
    let windowStart = max(floor, text.count - 64)
    var start = windowStart
    while start < text.count && text[start] & 0xC0 == 0x80 { start += 1 }
    let tail = String(decoding: text[start...], as: UTF8.self)
    guard let character = tail.last, let scalar = character.unicodeScalars.last, canGrow(scalar) else { return }
    text.removeLast(min(character.utf8.count, text.count - floor))
  }

  static func canGrow(_ scalar: Unicode.Scalar) -> Bool {
    guard !scalar.isASCII else { return false }
    let value = scalar.value
    if (0x1F1E6...0x1F1FF).contains(value) || value == 0x200D || (0xFE00...0xFE0F).contains(value)
      || (0xE0000...0xE01EF).contains(value) || value == 0x20E3 || (0x1100...0x11FF).contains(value)
      || (0xA960...0xA97F).contains(value) || (0xD7B0...0xD7FF).contains(value)
    {
      return true
    }
    let properties = scalar.properties
    if properties.isEmoji || properties.isEmojiModifier { return true }
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }
}
