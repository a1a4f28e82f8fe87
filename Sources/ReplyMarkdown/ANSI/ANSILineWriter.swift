/// The output side of terminal rendering: lines of styled text under a stack of container
/// prefixes (quote bars, list markers, hanging indents), with the blank lines between blocks.
///
/// Every line is self-contained: styles and hyperlinks opened on a line are closed before its
/// newline, and trailing spaces (with any escape sequence after the last visible character) are
/// removed when the line ends.
struct ANSILineWriter {
  /// What separates the next block from the previous one.
  enum Separator { case none, newline, blankLine }

  /// A styled piece of text.
  struct Segment {
    var bytes: [UInt8]
    var style: ANSIStyle
  }

  /// A container's prefix: `first` on its first line, `rest` after; both `width` columns wide.
  struct Piece {
    var first: [Segment]
    var rest: [Segment]
    var width: Int
  }

  let width: Int
  let color: Bool
  let hyperlinks: Bool
  /// The widest the visible prefixes may get; deeper containers drop their outermost prefixes.
  let maximumPrefixWidth: Int

  var out: [UInt8] = []
  var pieces: [Piece] = []
  /// Pieces below this index have had their first line.
  var usedCount = 0
  var pending: Separator = .none
  var pendingDepth = 0

  // The open line.
  private var style = ANSIStyle.plain
  private var linkOpen = false
  private var lastVisibleEnd = 0
  private var styleAtLastVisible = ANSIStyle.plain
  private var linkOpenAtLastVisible = false
  /// The target of the hyperlink the last lines opened, and on how many lines in a row.
  private var repeatedTarget: [UInt8] = []
  private var repeatedLines = 0
  /// The target the open line opened last, if any, and whether it left one closed for the cap.
  private var lineTarget: [UInt8]?
  private var lineSkippedLink = false

  /// On how many lines in a row one hyperlink is opened at most: a link whose text runs over more
  /// lines is clickable on its first ones only. Every line opens its links again (lines are
  /// self-contained), so link text of 20,000 short lines before a 2 KB address wrote the address
  /// 20,000 times, 41 MB from 62 KB (a helper's review).
  static let maximumLinkLines = 8

  init(width: Int, color: Bool, hyperlinks: Bool, capacity: Int) {
    self.width = width
    self.color = color
    self.hyperlinks = hyperlinks
    self.maximumPrefixWidth = min(max(width / 2, width - 40), width - 6)
    out.reserveCapacity(capacity)
  }

  // MARK: Blocks

  mutating func requestSeparator(_ separator: Separator) {
    pending = separator
    pendingDepth = pieces.count
  }

  mutating func push(_ piece: Piece) { pieces.append(piece) }

  mutating func pop() {
    pieces.removeLast()
    usedCount = min(usedCount, pieces.count)
  }

  /// Whether the innermost container has not had its first line yet.
  var innermostIsUnused: Bool { !pieces.isEmpty && usedCount < pieces.count }

  /// The columns left for content after the visible prefixes.
  var contentWidth: Int { width - window(depth: pieces.count).width }

  /// The visible prefixes of the innermost `depth` pieces: as many as fit, innermost first.
  private func window(depth: Int) -> (start: Int, width: Int) {
    var start = depth
    var total = 0
    while start > 0 {
      let next = pieces[start - 1].width
      if total + next > width - 6 || (total + next > maximumPrefixWidth && start < depth) { break }
      total += next
      start -= 1
    }
    return (start, total)
  }

  // MARK: Lines

  /// Starts a line: the pending separator, then the prefixes.
  mutating func beginLine() {
    flushSeparator()
    writePrefix(depth: pieces.count, blank: false)
    usedCount = pieces.count
  }

  private mutating func flushSeparator() {
    guard pending != .none else { return }
    let separator = pending
    pending = .none
    guard !out.isEmpty, separator == .blankLine else { return }
    writePrefix(depth: min(pendingDepth, pieces.count), blank: true)
    endLine()
  }

  private mutating func writePrefix(depth: Int, blank: Bool) {
    lastVisibleEnd = out.count
    styleAtLastVisible = .plain
    linkOpenAtLastVisible = false
    let (start, _) = window(depth: depth)
    for level in start..<depth {
      let piece = pieces[level]
      for segment in (blank || level < usedCount) ? piece.rest : piece.first {
        write(segment.bytes[...], style: segment.style)
      }
    }
  }

  /// Writes visible bytes in a style.
  mutating func write(_ bytes: ArraySlice<UInt8>, style newStyle: ANSIStyle) {
    bytes.withUnsafeBufferPointer { write($0, style: newStyle) }
  }

  /// Writes visible bytes in a style.
  mutating func write(_ bytes: UnsafeBufferPointer<UInt8>, style newStyle: ANSIStyle) {
    guard !bytes.isEmpty else { return }
    if color && newStyle != style {
      if newStyle.isPlain {
        out.append(contentsOf: Self.reset)
      } else {
        newStyle.appendSGR(to: &out)
      }
      style = newStyle
    }
    out.append(contentsOf: bytes)
    var last = bytes.count - 1
    while last >= 0 && bytes[last] == 0x20 { last -= 1 }
    if last >= 0 {
      lastVisibleEnd = out.count - (bytes.count - last - 1)
      styleAtLastVisible = style
      linkOpenAtLastVisible = linkOpen
    }
  }

  /// Writes visible text in a style: a constant, which (unlike an array) costs no reference
  /// counting.
  mutating func write(_ text: StaticString, style newStyle: ANSIStyle) {
    text.withUTF8Buffer { write($0, style: newStyle) }
  }

  /// Writes `count` spaces in plain style.
  mutating func writeSpaces(_ count: Int) {
    var left = count
    Self.spaces.withUTF8Buffer { spaces in
      while left > 0 {
        let chunk = min(left, spaces.count)
        write(UnsafeBufferPointer(rebasing: spaces[0..<chunk]), style: .plain)
        left -= chunk
      }
    }
  }

  /// Opens an OSC 8 hyperlink (closing any open one) to a target made safe by ``StyledText``.
  mutating func openLink(_ target: [UInt8]) {
    guard hyperlinks else { return }
    guard repeatedLines < Self.maximumLinkLines || target != repeatedTarget else {
      lineSkippedLink = true
      return
    }
    lineTarget = target
    out.append(contentsOf: Self.oscStart)
    out.append(contentsOf: target)
    out.append(contentsOf: Self.stringTerminator)
    linkOpen = true
  }

  /// Closes the open hyperlink.
  mutating func closeLink() {
    guard linkOpen else { return }
    out.append(contentsOf: Self.oscStart)
    out.append(contentsOf: Self.stringTerminator)
    linkOpen = false
  }

  /// Ends the line: drops trailing spaces and whatever escape sequences follow the last visible
  /// character, closes the style and the hyperlink, writes the newline.
  mutating func endLine() {
    out.removeSubrange(lastVisibleEnd...)
    if color && !styleAtLastVisible.isPlain { out.append(contentsOf: Self.reset) }
    if linkOpenAtLastVisible {
      out.append(contentsOf: Self.oscStart)
      out.append(contentsOf: Self.stringTerminator)
    }
    out.append(0x0A)
    if let target = lineTarget, target == repeatedTarget {
      repeatedLines += 1
    } else if let target = lineTarget {
      repeatedTarget = target
      repeatedLines = 1
    } else if !lineSkippedLink {
      repeatedLines = 0  // a line without the link ends its run
    }
    lineTarget = nil
    lineSkippedLink = false
    style = .plain
    linkOpen = false
    lastVisibleEnd = out.count
    styleAtLastVisible = .plain
    linkOpenAtLastVisible = false
  }

  /// The lines written, without their newlines.
  func splitLines() -> [String] {
    var result: [String] = []
    var start = 0
    for index in 0..<out.count where out[index] == 0x0A {
      result.append(String(decoding: out[start..<index], as: UTF8.self))
      start = index + 1
    }
    if start < out.count { result.append(String(decoding: out[start...], as: UTF8.self)) }
    return result
  }

  /// Writes the part `range` of styled text (no newline bytes inside), with styles and links.
  mutating func write(_ text: StyledText, _ range: Range<Int>) {
    guard !range.isEmpty else { return }
    text.bytes.withUnsafeBufferPointer { bytes in
      text.runs.withUnsafeBufferPointer { runs in
        var runIndex = Self.run(containing: range.lowerBound, in: runs)
        var position = range.lowerBound
        var currentLink = -1
        while position < range.upperBound && runIndex < runs.count {
          let run = runs[runIndex]
          let end = min(run.end, range.upperBound)
          if hyperlinks && run.link != currentLink {
            closeLink()
            if run.link >= 0 { openLink(text.links[run.link]) }
            currentLink = run.link
          }
          if end > position { write(UnsafeBufferPointer(rebasing: bytes[position..<end]), style: run.style) }
          position = end
          runIndex += 1
        }
      }
    }
  }

  /// The index of the run holding byte `position` (runs are sorted by their ends).
  private static func run(containing position: Int, in runs: UnsafeBufferPointer<StyledText.Run>) -> Int {
    var low = 0
    var high = runs.count
    while low < high {
      let middle = (low + high) / 2
      if runs[middle].end <= position { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// 64 spaces, the most ``writeSpaces(_:)`` writes at once.
  static let spaces: StaticString = "                                                                "
  static let reset: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")]
  static let oscStart: [UInt8] = [0x1B, UInt8(ascii: "]"), UInt8(ascii: "8"), UInt8(ascii: ";"), UInt8(ascii: ";")]
  static let stringTerminator: [UInt8] = [0x1B, UInt8(ascii: "\\")]
}
