/// A clean point on the last line of the open paragraph, and the healed display of everything
/// before it: an update then heals only what arrived after the point, parsed on its own, and
/// appends it to the paragraph.
///
/// A point is clean when no inline construct can reach across it. The stream takes one only where
/// that is checked, not assumed:
/// - the point is a blank after a byte that begins nothing (``mayPrecedePoint(_:)``), so delimiter
///   flanking, autolinks and a `]` (no `(` or `[` may follow it over a blank) read the same
///   whatever follows, and a reference link cannot continue over the blank;
/// - the heal of the text before it changed nothing but marks (a pending reference link, a
///   hidden footnote reference): no emphasis, code span, link text, tag or entity is open there;
///   nor did it leave a run that can open emphasis, or a bracket, as text (an intraword `3*4`,
///   which a `3*4` after the point would close; a `[` before a link, after which no `www.`
///   address is linked: ``StreamHealer/Healed/leavesOpener``);
/// - the paragraph is the last block of the display, the one the heal found open at the point
///   (not an earlier one before a block that shows nothing), and the line's block is settled
///   (``PlainTextExtension/isSettled(line:)``: no marker, tag, definition label or table row to
///   be), and no line break arrived since.
///
/// What follows the point is parsed after a one-letter sentinel paragraph start (`x`), so it is
/// read as paragraph text after a blank, as it is in place. A differential test compares the
/// result with a full heal after every update (`StreamingFastPathTests`).
struct TailCheckpoint: Sendable {
  /// The healed display of the open part up to ``end`` (footnotes not yet renumbered).
  var document: MarkdownDocument
  /// The open paragraph: the last block of ``document``, whose descendants end the node array.
  var paragraph: Int
  /// Where the point is in the received text: the blank that follows it is the next segment's
  /// first byte.
  var end: Int
  /// Where the open part and the last line started when the point was taken; the point holds
  /// only while both stay, with the same settled revision.
  var openStart: Int
  var lineStart: Int
  var revision: Int

  /// The sentinel parsed before a segment: it makes the segment paragraph text after a blank.
  static let sentinel = UInt8(ascii: "x")

  /// The last candidate for a clean point in `source[start..<source.count]` (the last line, read
  /// from a point where nothing is open): a blank after a plain, non-blank byte (not the end of a
  /// Unicode space) where a byte count finds nothing open — no code span, `<`, link text or
  /// destination, and an even number of `*`, of `~`, and of `_` at word edges. The count is a
  /// filter; the heal of the text before the candidate decides.
  ///
  /// - Complexity: O(n) in the bytes read.
  static func candidate(in source: [UInt8], from start: Int) -> Int? {
    var found: Int?
    var code = 0  // the length of the backtick run that opened a code span, 0 outside
    var brackets = 0
    var destination = 0
    var angle = false
    var stars = 0
    var tildes = 0
    var underscores = 0
    var index = start
    let end = source.count
    while index < end {
      let byte = source[index]
      if code > 0 || byte == ASCII.backtick {
        guard byte == ASCII.backtick else {
          index += 1
          continue
        }
        var run = 0
        while index < end, source[index] == ASCII.backtick {
          run += 1
          index += 1
        }
        // A run longer than cmark-gfm's longest code span delimiter is text.
        if run <= CodeSpanIndex.longestRun { code = code == 0 ? run : (code == run ? 0 : code) }
        continue
      }
      switch byte {
      case ASCII.backslash:
        index += 1
      case ASCII.lessThan:
        angle = true
      case ASCII.greaterThan:
        angle = false
      case ASCII.openBracket:
        brackets += 1
      case ASCII.closeBracket:
        brackets = max(0, brackets - 1)
        if index + 1 < end, source[index + 1] == ASCII.openParenthesis {
          destination += 1
          index += 1
        }
      case ASCII.openParenthesis where destination > 0:
        destination += 1
      case ASCII.closeParenthesis where destination > 0:
        destination -= 1
      case ASCII.star:
        stars += 1
      case ASCII.tilde:
        tildes += 1
      case ASCII.underscore:
        let before = index > start ? source[index - 1] : ASCII.space
        let after = index + 1 < end ? source[index + 1] : ASCII.space
        if !(ASCII.isLetter(before) || ASCII.isDigit(before)) || !(ASCII.isLetter(after) || ASCII.isDigit(after)) {
          underscores += 1
        }
      default:
        if ASCII.isBlank(byte), index > start, Self.mayPrecedePoint(source[index - 1]), brackets == 0,
          destination == 0, !angle,
          stars % 2 == 0, tildes % 2 == 0, underscores % 2 == 0,
          source[index - 1] < ASCII.firstNonASCII
            || ByteHolds.trailingUnicodeSpaceLength(source[start..<index], floor: start) == 0,
          !Self.endsWordWithAddress(source, at: index, floor: start)
        {
          found = index
        }
      }
      index += 1
    }
    return found
  }

  /// Whether the word that ends at `end` (a blank) holds `www.`: the autolink extension may read
  /// such an address differently at the end of the text than before a blank (cmark-gfm links the
  /// `www` of `www.` only once text follows, and `www.a_` only at the end), so no clean point
  /// comes after it (`www. a_ …` in one chunk showed `www.` as text through a point after it,
  /// where a heal of the whole links it: fuzz seed 1415).
  ///
  /// - Complexity: O(w) in the word's bytes: each blank reads the word before it once.
  static func endsWordWithAddress(_ source: [UInt8], at end: Int, floor: Int) -> Bool {
    var index = end
    while index > floor, !ASCII.isBlank(source[index - 1]) { index -= 1 }
    guard end - index >= 4 else { return false }
    for position in index...(end - 4)
    where ASCII.lower(source[position]) == UInt8(ascii: "w") && ASCII.lower(source[position + 1]) == UInt8(ascii: "w")
      && ASCII.lower(source[position + 2]) == UInt8(ascii: "w") && source[position + 3] == ASCII.period
    {
      return true
    }
    return false
  }

  /// Whether a clean point may follow `byte` (and no Unicode space ends there: ``candidate(in:from:)``
  /// checks that, as the heal trims one with the blanks after it where it holds a byte back, across
  /// the point: a space, a no-break space, a space and `&` showed the no-break space through a point
  /// after it and nothing in full): a plain byte (``PlainTextExtension/isPlain(_:)``),
  /// or one that ends a construct whose end a blank settles — `]` (no destination or label may
  /// follow a blank), `)`, `>`. Never a blank, `[`, `<`, `(`, `&` or `\`, which may still begin
  /// something, nor `*`, `_`, `~` or `` ` ``: a full heal holds back the markers that end the text
  /// with the blanks and marker runs before them (``ByteHolds/trimTrailingMarkers(_:floor:)``),
  /// across the point (`word ****` and 60 more `*`, then ` _`, showed the run through a point
  /// after it and nothing in full: the fast-path sweep).
  static func mayPrecedePoint(_ byte: UInt8) -> Bool {
    if ASCII.isBlank(byte) { return false }
    if PlainTextExtension.isPlain(byte) { return true }
    switch byte {
    case ASCII.closeBracket, ASCII.greaterThan, ASCII.colon, UInt8(ascii: ";"):
      return true
    default:
      return false
    }
  }

  /// The index of the paragraph that ends `document` when it is the last block (every node after
  /// it is its descendant), else nil.
  static func lastParagraph(of document: MarkdownDocument) -> Int? {
    let nodes = document.nodes
    var index = 0
    // Walk down the last child at each level.
    while true {
      var child = index + 1
      guard child < nodes[index].subtreeEnd else { break }
      var last = child
      while child < nodes[index].subtreeEnd {
        last = child
        child = nodes[child].subtreeEnd
      }
      if case .paragraph = nodes[last].kind { return nodes[last].subtreeEnd == nodes.count ? last : nil }
      switch nodes[last].kind {
      case .list, .item, .blockQuote: index = last
      default: return nil
      }
    }
    return nil
  }

  /// `base` with the inline content of `segment`'s only paragraph (a segment parsed after
  /// ``sentinel``) appended to the paragraph at `paragraph`, the sentinel removed; nil when the
  /// segment did not parse as one paragraph starting with the sentinel.
  ///
  /// - Complexity: O(nodes of both).
  static func appending(_ segment: MarkdownDocument, to base: MarkdownDocument, paragraph: Int) -> MarkdownDocument? {
    let parts = segment.nodes
    guard parts.count >= 3, parts[0].subtreeEnd == parts.count, case .paragraph = parts[1].kind,
      parts[1].subtreeEnd == parts.count, case .text(let first) = parts[2].kind, parts[2].depth == 2,
      first.utf8.first == sentinel
    else { return nil }
    var nodes = base.nodes
    let oldCount = nodes.count
    let depthShift = nodes[paragraph].depth - 1
    let firstText = String(decoding: first.utf8.dropFirst(), as: UTF8.self)
    // The segment's first text continues the paragraph's last text when both are its children.
    if oldCount - 1 > paragraph, nodes[oldCount - 1].depth == nodes[paragraph].depth + 1,
      case .text(let previous) = nodes[oldCount - 1].kind
    {
      nodes[oldCount - 1].kind = .text(previous + firstText)
    } else if !firstText.isEmpty {
      nodes.append(MarkdownNode(kind: .text(firstText), subtreeEnd: nodes.count + 1, depth: nodes[paragraph].depth + 1))
    }
    let from = 3
    let offset = nodes.count - from
    for index in from..<parts.count {
      var node = parts[index]
      node.subtreeEnd += offset
      node.depth += depthShift
      node.range = nil
      nodes.append(node)
    }
    // The paragraph and the blocks around it end with the new last node.
    for index in 0...paragraph where nodes[index].subtreeEnd == oldCount {
      nodes[index].subtreeEnd = nodes.count
    }
    return MarkdownDocument(nodes: nodes, options: base.options, diagnostics: base.diagnostics)
  }
}
