/// The link reference and footnote definitions found in the closed part of a streaming reply,
/// kept as their source text, and the preamble that lets a later parse resolve the labels it uses.
///
/// A definition applies to the whole reply wherever it stands, but the stream parses only its open
/// part. So every parse starts with a preamble: the definitions of the labels the parsed text
/// uses, in reply order (cmark-gfm keeps the first definition of a label), and nothing else. The
/// preamble is therefore bounded by the parsed text's own labels, however many definitions the
/// reply holds.
struct DefinitionStore: Sendable {
  /// One piece of closed source text that defines labels.
  struct Piece: Sendable {
    /// The text, ending with a line break.
    let bytes: [UInt8]
    /// Whether the piece may produce a block when parsed (a footnote definition, a container with
    /// a definition inside): the preamble then ends with a line that closes it, and the blocks it
    /// produces are dropped from the parse.
    let makesBlocks: Bool
    /// Whether every preamble includes it: a footnote definition whose text references a
    /// footnote (itself, or another) makes that footnote referenced wherever it stands.
    let isAlwaysIncluded: Bool
    /// Where it starts in the received text.
    let start: Int
    /// The labels it defines (a footnote definition's own, and those of the definitions inside).
    var labels: [String] = []
    /// Whether its text holds `[^` (what it cites is followed into the preamble).
    let holdsFootnoteOpener: Bool
    /// A stand-in for the piece in a preamble whose parse shows no footnote text: for a long
    /// piece that defines footnotes alone and cites none, one empty definition per label (a
    /// reference needs its definition to exist, not its text); for a long piece of link
    /// definitions, one per label whose destination is a key of ``DefinitionStore/stubTargets``,
    /// which ``DefinitionStore/restoringLinks(_:)`` replaces after the parse. A long definition
    /// used after every paragraph was parsed again in every preamble, in time quadratic in the
    /// reply (a trial: a 4.5 KB footnote cited 800 times streamed in 1.6 s a byte at a time, 195
    /// KB in 40 s in 20-byte chunks; a 100 KB destination 4.1 s).
    var stub: [UInt8]?
  }

  /// The length past which a piece may stand in preambles as its ``Piece/stub``.
  static let stubLength = 128

  /// The most bytes of always-included pieces; past it the stream cannot keep them all in every
  /// preamble and relies on the final replacement.
  static let alwaysIncludedLimit = 4096

  /// A preamble: text to parse before a region, and how many lines it spans.
  struct Preamble: Sendable {
    var bytes: [UInt8] = []
    var lines = 0
    /// Whether the preamble holds a piece that is more than plain link definitions; blocks may
    /// come from any piece (text that looked like a definition and was not), so a parse after a
    /// non-empty preamble always leaves out the blocks that start in its lines.
    var makesBlocks = false
    /// Whether definitions that the chosen ones cite were left out (past the budget for
    /// following them): a parse after it may resolve footnotes unlike the whole reply's.
    var isPartial = false
    /// Whether a parse after it must restore the links of stubbed definitions
    /// (``DefinitionStore/restoringLinks(_:)``).
    var isStubbed = false
    var isEmpty: Bool { bytes.isEmpty }

    static let empty = Preamble()
  }

  private(set) var pieces: [Piece] = []
  private var piecesByLabel: [String: [Int]] = [:]
  /// The lengths (UTF-8 bytes after the caret) of the footnote labels defined: a footnote
  /// reference spanning lines may be looked up under a prefix of any length its columns allow,
  /// and only these can match (``ReferenceLabels/forEachUsed(in:footnoteLengths:_:)``).
  private var footnoteLengths: Set<Int> = []
  private var alwaysIncluded: [Int] = []
  /// The bytes of the always-included pieces.
  private(set) var alwaysIncludedBytes = 0

  /// Link labels a kept piece defines for certain, with where the first such piece starts (see
  /// ``add(_:at:definingLinkLabels:)``).
  ///
  /// Keyed by the label's bytes: Swift's string equality takes canonically equivalent labels for
  /// one, which cmark-gfm does not (`[e` U+0301 `]:` and `[é]:` define two labels; the second
  /// was dropped as a repeat of the first: a trial).
  private var surelyDefined: [[UInt8]: Int] = [:]

  /// What the stubbed link definitions define, by the placeholder destination their stubs give.
  private(set) var stubTargets: [String: MarkdownNode.LinkInfo] = [:]

  /// The start of a stub's placeholder destination.
  static let stubPrefix = "x-replykit-definition-"

  /// Whether no definition has been seen.
  var isEmpty: Bool { pieces.isEmpty }

  /// Whether `label` (a key from ``ReferenceLabels``) has a definition.
  func defines(_ label: String) -> Bool { piecesByLabel[label] != nil }

  /// Keeps `text` if it defines labels that may matter to a later parse; returns those labels.
  ///
  /// `text` must be closed: no later line can continue it. `definingLinkLabels`, when known, are
  /// the link labels it really defines (a parse told): it is kept for those and its footnote
  /// labels only, and not at all when a definition before it defines each of them already
  /// (cmark-gfm keeps the first definition of a label, so a later one changes no parse). Else
  /// every preamble for a label would carry every text that once looked like its definition: a
  /// table whose header starts `[x]:`, a reply repeating `[x]: u` a thousand times.
  @discardableResult
  mutating func add(
    _ text: ArraySlice<UInt8>, at start: Int, definingLinkLabels: Set<String>? = nil, footnotes: Bool = false
  ) -> [String] {
    var labels = ReferenceLabels.defined(in: text)
    if let defined = definingLinkLabels {
      // A text starting with `[^label]:` defines that footnote, as surely as a parse would tell:
      // a model repeating `[^a]: …` after every paragraph kept every copy, and every preamble
      // for `[^a]` carried them all (a 40 KB reply streamed in 38 s).
      let footnote = footnotes ? Self.footnoteDefined(atStartOf: text) : nil
      labels = labels.filter { $0.hasPrefix("^") || defined.contains($0) }
      // Footnotes and links have a key each: a link definition `[ ^1]:` (the key `^1` too)
      // after footnote `[^1]:` is no repeat, and `[^1]` takes the link (a review: the link
      // definition was dropped as moot, and `[^1]` streamed as the footnote).
      func sureKey(_ label: String) -> [UInt8] {
        label == footnote ? [0] + Array(label.utf8) : Array(label.utf8)
      }
      // Pieces may close out of reply order: only a definition before this one makes it moot.
      // Not one that cites a footnote: cmark-gfm ignores the definition but not what it cites
      // (`[^a]: one`, then `[^a]: two [^n]` made `n` referenced: a review).
      if labels.allSatisfy({ (surelyDefined[sureKey($0)] ?? .max) < start }),
        footnote.map({ label in labels.count(where: { $0 == label }) <= 1 }) ?? true,
        Self.footnoteOpeners(in: Array(text)) <= Self.footnoteDefinitions(in: text)
      {
        return []
      }
      for label in footnote.map({ defined.union([$0]) }) ?? defined {
        let key = sureKey(label)
        surelyDefined[key] = min(surelyDefined[key] ?? .max, start)
      }
    }
    guard !labels.isEmpty else { return [] }
    var bytes = Array(text)
    let first = bytes.first { !ASCII.isBlank($0) }
    // Link definitions alone end at their last byte; text that may make blocks (a footnote
    // definition, also after link definitions in the same piece: fuzz seed 1228) is kept as
    // received, blank lines and all: cmark-gfm tells a line holding a space from an empty one at
    // the end of a fence in a footnote definition (fuzz seed 1218).
    let startsPlain =
      first == UInt8(ascii: "[") && bytes.dropFirst().first { !ASCII.isBlank($0) } != UInt8(ascii: "^")
      && !labels.contains { $0.hasPrefix("^") }
    // Not a vertical tab or form feed: to cmark-gfm's definition scan they are bytes of a
    // destination (`[foo]:`, a vertical tab: a link to `%0B`), and after a title they make the
    // line no definition (trimmed, `[foo]:` defined nothing, `[foo]: /u` with a feed linked `/u`,
    // and a title with a vertical tab after it made a definition: fuzz seed 1376).
    if startsPlain {
      while let last = bytes.last, ASCII.isCmarkSpace(last) { bytes.removeLast() }
    }
    if bytes.last != ASCII.newline && bytes.last != ASCII.carriageReturn { bytes.append(ASCII.newline) }
    let index = pieces.count
    // More `[^` (or `[\^`, which cmark-gfm takes for one too) than the footnote labels it
    // defines: its text references a footnote.
    let footnoteLabels = Self.footnoteDefinitions(in: text)
    let referencesFootnotes = footnoteLabels > 0 && Self.footnoteOpeners(in: bytes) > footnoteLabels
    let always = referencesFootnotes && alwaysIncludedBytes + bytes.count <= Self.alwaysIncludedLimit
    // One footnote definition (a `[^b]:` in its code is no definition, but the label scan reports
    // it: a stub for it made `[^b]` resolve: a review), whose label the stub repeats as written
    // (the ids of the references come from it).
    var stub: [UInt8]?
    if bytes.count > Self.stubLength && !referencesFootnotes, let label = Self.footnoteDefined(atStartOf: bytes[...]),
      Set(labels) == [label], let close = bytes.firstIndex(of: ASCII.closeBracket)
    {
      stub = Array(bytes[...(close + 1)]) + Array(" x\n".utf8)
    }
    pieces.append(
      Piece(
        bytes: bytes, makesBlocks: !startsPlain, isAlwaysIncluded: referencesFootnotes, start: start,
        labels: Array(Set(labels)),
        holdsFootnoteOpener: SourceLines.contains(bytes, 0..<bytes.count, Self.footnoteOpener), stub: stub))
    if always {
      alwaysIncluded.append(index)
      alwaysIncludedBytes += bytes.count
    } else if referencesFootnotes {
      alwaysIncludedBytes = Self.alwaysIncludedLimit + 1
    }
    for label in Set(labels) {
      piecesByLabel[label, default: []].append(index)
      if label.hasPrefix("^") { footnoteLengths.insert(label.utf8.count - 1) }
    }
    return labels
  }

  /// Gives the last piece kept, a long one of link definitions alone, a stub: `targets` are what
  /// its labels resolve to in a parse of it (every label it defines, else nothing changes).
  mutating func stubLinks(ofLastPiece labels: [String], targets: [String: MarkdownNode.LinkInfo]) {
    guard let index = pieces.indices.last, pieces[index].stub == nil, !pieces[index].makesBlocks,
      pieces[index].bytes.count > Self.stubLength, !labels.isEmpty,
      labels.allSatisfy({ label in
        !label.hasPrefix("^") && targets[label] != nil
          && label.utf8.allSatisfy {
            $0 >= 0x20 && $0 != ASCII.openBracket && $0 != ASCII.closeBracket && $0 != ASCII.backslash
          }
      })
    else { return }
    var stub: [UInt8] = []
    for (number, label) in labels.sorted().enumerated() {
      let key = "\(Self.stubPrefix)\(index)-\(number)"
      stubTargets[key] = targets[label]
      stub += Array("[\(label)]: \(key)\n".utf8)
    }
    pieces[index].stub = stub
  }

  /// `document` with the links and images a stub's placeholder points at given the destination
  /// and title of the definition it stands for.
  ///
  /// - Complexity: O(n) in the nodes of `document`.
  func restoringLinks(_ document: MarkdownDocument) -> MarkdownDocument {
    guard !stubTargets.isEmpty else { return document }
    var nodes = document.nodes
    var changed = false
    func restored(_ link: MarkdownNode.LinkInfo) -> MarkdownNode.LinkInfo? {
      guard link.destination.hasPrefix(Self.stubPrefix), let target = stubTargets[link.destination] else { return nil }
      var link = link
      link.destination = target.destination
      link.title = target.title
      return link
    }
    for index in nodes.indices {
      switch nodes[index].kind {
      case .link(let link):
        guard let link = restored(link) else { continue }
        nodes[index].kind = .link(link)
      case .image(let link):
        guard let link = restored(link) else { continue }
        nodes[index].kind = .image(link)
      default:
        continue
      }
      changed = true
    }
    return changed ? MarkdownDocument(nodes: nodes, options: document.options) : document
  }

  /// How many `[^` (or `[\^`, which cmark-gfm takes for one too) `bytes` holds: more than the
  /// footnote labels it defines, and its text cites a footnote.
  static func footnoteOpeners(in bytes: [UInt8]) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      buffer.indices.count {
        buffer[$0] == ASCII.openBracket && ReferenceLabels.labelStart(in: buffer, open: $0) != nil
      }
    }
  }

  /// The preamble for parsing `region`: the pieces that define a label `region` uses, and the
  /// pieces that those use in turn (a footnote whose text cites another), each once; pieces from
  /// within the region (it starts at `regionStart` in the received text) are part of it and left
  /// out. Unless `footnoteText` (a parse that keeps footnote definitions, to show the footnote
  /// section), a piece with a ``Piece/stub`` stands as its stub.
  ///
  /// - Complexity: O(n) in `region` plus the preamble's size.
  func preamble(for region: ArraySlice<UInt8>, regionStart: Int = .max, footnoteText: Bool = false) -> Preamble {
    var preamble = Preamble()
    if !pieces.isEmpty {
      var chosen: Set<Int> = []
      var pending = Array(alwaysIncluded)
      func isInside(_ index: Int) -> Bool {
        let start = pieces[index].start
        return start >= regionStart && start - regionStart < region.count
      }
      // Each label is looked up once, however often the region uses it.
      var looked: Set<String> = []
      // A label defined inside the region or before it takes that first definition: a piece
      // after the region that defines it again (beside a label the block waited for) would come
      // first in the preamble and win (`[x]: /a`, `[x]`, then `[x]: /b` and `[y]: /c`: a review).
      let regionEnd = regionStart == .max ? Int.max : regionStart + region.count
      func use(_ label: String) {
        guard looked.insert(label).inserted, let defining = piecesByLabel[label] else { return }
        if regionEnd != .max, defining.contains(where: { pieces[$0].start < regionEnd }) {
          pending += defining.filter { pieces[$0].start < regionEnd }
        } else {
          pending += defining
        }
      }
      ReferenceLabels.forEachUsed(in: region, footnoteLengths: footnoteLengths, use)
      // The final parse (the footnote section's) has every footnote definition, whatever labels
      // the scan reads in the region: cmark-gfm looks a reference whose brackets stand on
      // different lines up under a label made from their columns and its paragraph's offsets,
      // which the scan may read otherwise inside nested definitions (`[^A]:[^a]:[^1``, then
      // `[]`]` linked to `[^1]:` in one-shot rendering and stayed text at the end of a stream
      // into a pipe: fuzz seed 1429). One parse, so no budget either.
      if footnoteText {
        for index in pieces.indices where pieces[index].labels.contains(where: { $0.hasPrefix("^") }) {
          pending.append(index)
        }
      }
      // What the chosen pieces cite in turn is followed up to a budget: a chain of footnotes each
      // citing the next (`[^f1]: [^f2]`, …) put the whole chain in every preamble, quadratic in
      // the reply. Past the budget the preamble is partial, and the stream relies on its final
      // replacement, as it does past ``alwaysIncludedLimit``.
      var followedBytes = 0
      while let index = pending.popLast() {
        guard !isInside(index), chosen.insert(index).inserted else { continue }
        guard pieces[index].holdsFootnoteOpener else { continue }
        followedBytes += pieces[index].bytes.count
        if followedBytes > Self.alwaysIncludedLimit && !footnoteText {
          preamble.isPartial = true
          continue
        }
        ReferenceLabels.forEachUsed(in: pieces[index].bytes[...], footnoteLengths: footnoteLengths, use)
      }
      // In reply order, not the order the pieces closed in (a definition after a block may close
      // before one before it): cmark-gfm keeps the first definition of a label.
      // A piece that may make blocks is closed at once by a one-line HTML comment, as the
      // unindented line after it in the reply closed it: a blank line in between would change
      // it (cmark-gfm gives a fence in a footnote definition one more line), and without a
      // closing line the next piece, or an indented first line of the region, could continue it.
      var closed = true
      // The labels of the pieces left out below: the first definition of each is not in the
      // preamble, so no later piece may stand for it.
      var leftOut: Set<String> = []
      for index in chosen.sorted(by: { (pieces[$0].start, $0) < (pieces[$1].start, $1) }) {
        let piece = pieces[index]
        // Nor a piece after the region (a footnote definition followed in) that defines again a
        // label defined in the region or before it: put first, its definition would win
        // (`[x]:a`, `[x]`, then `[^1]:[x]:v` cited by a footnote: fuzz seed 1358). Nor one after
        // it that defines again a label of a piece left out: the label's first definition is
        // not in the preamble, and the later one would resolve it (`[ä]:u` and `[Foo]` in one
        // paragraph, then `[Foo]:7` and `[Ä]:h` left out for `ä`, then `[^o]:[Foo]:g`: `[Foo]`
        // committed with `g` into a pipe; a review). The region's parse leaves such a label
        // unresolved, and its block waits for the final update.
        if regionEnd != .max, piece.start >= regionEnd,
          piece.labels.contains(where: { label in
            leftOut.contains(label) || piecesByLabel[label]?.contains { pieces[$0].start < regionEnd } ?? false
          })
        {
          leftOut.formUnion(piece.labels)
          continue
        }
        preamble.bytes += footnoteText ? piece.bytes : piece.stub ?? piece.bytes
        preamble.bytes += piece.makesBlocks ? Self.closingLine : [ASCII.newline]
        closed = piece.makesBlocks
        preamble.makesBlocks = preamble.makesBlocks || piece.makesBlocks
      }
      if preamble.makesBlocks && !closed { preamble.bytes += Self.closingLine }
    }
    // A byte order mark starting the region is text, not a mark: parsed first, cmark drops it.
    if preamble.bytes.isEmpty && region.starts(with: InputGuard.byteOrderMark) { preamble.bytes = [ASCII.newline] }
    preamble.lines = SourceLines.lineStarts(preamble.bytes).count - 1
    preamble.isStubbed = !footnoteText && !stubTargets.isEmpty && !preamble.bytes.isEmpty
    return preamble
  }

  static let footnoteOpener = Array("[^".utf8)

  /// The key of the footnote label that `text` starts to define (`[^label]:` at its very start,
  /// the label without blanks or line breaks, as cmark-gfm's footnote definitions have), if any.
  static func footnoteDefined(atStartOf text: ArraySlice<UInt8>) -> String? {
    guard text.starts(with: footnoteOpener) else { return nil }
    var index = text.startIndex + 2
    while index < text.endIndex, text[index] != UInt8(ascii: "]") {
      if ASCII.isSpace(text[index]) || text[index] == 0 || text[index] == UInt8(ascii: "[") { return nil }
      if text[index] == ASCII.backslash { return nil }
      index += 1
    }
    guard index > text.startIndex + 2, index + 1 < text.endIndex, text[index + 1] == ASCII.colon else { return nil }
    let key = ReferenceLabels.normalized(text[(text.startIndex + 1)..<index])
    return key.isEmpty ? nil : key
  }
  static let closingLine = Array("<!---->\n\n".utf8)

  /// How many footnote definitions `text` starts on its lines, counted strictly: `[^label]:`, its
  /// label written with its caret and holding no blank (`[^1 ]:` defines no footnote, though
  /// `[^1 ]` cites footnote 1), only where a definition can stand: after block quote markers, list
  /// markers followed by a blank, another such definition (`[^a]:[^b]:` nests one in the other),
  /// and fewer than four columns of blanks between them (more may make it a paragraph's lazy text:
  /// `[^2]: a`, then `        [^1]: c` cites `[^1]`). Not after a task checkbox: inside a
  /// footnote definition or a quote cmark-gfm makes no task item, and `- [ ] [^1]:` is text citing
  /// `[^1]` (a review).
  ///
  /// Weighed against the text's `[^` openers, the rest are citations, which make the footnotes
  /// they cite show. So the count errs low: one too many hides a citation and loses its footnote
  /// (`[^1]:-[^1]:`, where `-[^1]:` is text citing `[^1]`, was counted as two definitions and the
  /// footnote section was lost: fuzz seed 1346); one too few only puts a piece in more preambles.
  /// A link label spanning lines after a definition's `[` (`[^A]:[`, then `^A]:[^1] y`) is no
  /// footnote definition either (fuzz seed 1343).
  static func footnoteDefinitions(in text: ArraySlice<UInt8>) -> Int {
    var count = 0
    var index = text.startIndex
    let end = text.endIndex
    func blankOrEnd(_ at: Int) -> Bool {
      at >= end || ASCII.isBlank(text[at]) || text[at] == ASCII.newline || text[at] == ASCII.carriageReturn
    }
    while index < end {
      var lineEnd = index
      while lineEnd < end, text[lineEnd] != ASCII.newline, text[lineEnd] != ASCII.carriageReturn { lineEnd += 1 }
      // The line's prefix: where a definition may still start.
      var blankColumns = 0
      prefix: while index < end {
        let byte = text[index]
        if ASCII.isBlank(byte) {
          blankColumns += byte == ASCII.tab ? 4 : 1
          guard blankColumns < 4 else { break prefix }
          index += 1
          continue
        }
        blankColumns = 0
        if byte == UInt8(ascii: ">") {
          index += 1
        } else if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") {
          guard blankOrEnd(index + 1) else { break prefix }
          index += 1
        } else if ASCII.isDigit(byte) {
          var digits = index
          while digits < end, digits - index < 9, ASCII.isDigit(text[digits]) { digits += 1 }
          guard digits < end, text[digits] == UInt8(ascii: ".") || text[digits] == UInt8(ascii: ")"),
            blankOrEnd(digits + 1)
          else { break prefix }
          index = digits + 1
        } else if byte == ASCII.openBracket {
          // As cmark-gfm reads a definition's label: up to the first `]`, escapes or not.
          guard MarkdownStream.opensFootnoteDefinition(text[index..<lineEnd]),
            let close = text[(index + 2)..<lineEnd].firstIndex(of: ASCII.closeBracket)
          else { break prefix }
          count += 1
          index = close + 2
        } else {
          break prefix
        }
      }
      index = lineEnd + 1
    }
    return count
  }

  /// Whether `key` (from ``ReferenceLabels``) can be a footnote's label: `^` and at least one
  /// character, no blank (a link label spanning lines after a definition's `[`, `[^A]:[`, then
  /// `^]:`, is the key `^`: fuzz seed 1336).
  static func isFootnoteLabel(_ key: String) -> Bool {
    key.utf8.count > 1 && key.hasPrefix("^") && !key.utf8.contains(ASCII.space)
  }
}
