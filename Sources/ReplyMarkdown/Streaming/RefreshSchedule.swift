/// When an update re-parses a large open part: the rule that keeps the total work linear even
/// when one block grows without end (a 40 KB paragraph, a list nested a thousand levels deep).
///
/// An open part whose parse costs up to ``threshold`` is parsed (and its tail healed) on every
/// update that brings new text. A costlier one is parsed again only once the text that arrived
/// since its last parse reaches an eighth of its size; in between, updates show the last healed
/// tail and close nothing new. Each parse of `n` bytes then pays for at least `n / 8` new bytes, so
/// the parsing per received byte stays bounded (about 8 parses of each byte, plus the threshold
/// per update), however long the block grows. Nothing is lost by waiting: the next parse closes
/// and shows everything that arrived, and ``MarkdownStream/finish()`` parses all that is left;
/// plain words that continue the last line still show at once (``PlainTextExtension`` needs no
/// parse).
///
/// A parse costs the open part's size, and more where cmark-gfm reads text again: after every
/// line that may be a table's delimiter row it reads the paragraph above it once more (up to
/// ``InputLimits/maxTableHeaderScan``, past which the input guard splits the paragraph). A
/// paragraph of 500 short `|-|` lines is 2 KB but costs a parse of 500 KB; counted by its size
/// alone it was parsed on every update, 40 times slower per byte than prose (``parseCost(_:)``);
/// so where the cost is far above the size, the wait counts the cost (``waitBase(size:cost:)``).
/// Its autolinker reads a word again from each `@`, `scheme:` and `www.` in it: a 2 KB line of
/// `a@a@…` costs a thousand reads of itself (parsed on every update, 14 KB one byte at a time
/// took 38 s).
///
/// The threshold is what one update may parse for its open part: 1 KB keeps the slowest updates
/// of a mixed reply near the cost of an ordinary one (at 8 KB, open quotes and list items of a
/// few KB were re-parsed whole on every chunk and made up over a third of all parsing; at 2 KB,
/// the updates that parsed 1–2 KB twice, for the structure and for the tail, were most of the
/// slowest hundredth), at the price of an open part over 1 KB showing markup-bearing text in
/// steps of an eighth of its size. On the Corpus replies streamed in 20-byte chunks that is 7
/// updates of 9,700 (none at 2 KB, 61 at 512 B); `replykit-bench stream-stats` counts them.
///
/// The display follows the same rule with a larger threshold and a finer step. A consumer renders
/// the open part whole whenever the tail changes (but for words added in place, see
/// ``MarkdownStreamTail``), so an open part that grows without end — a
/// paragraph of 100 KB on one line, whose plain words ``PlainTextExtension`` adds without a parse
/// — cost a render of all of it per update: quadratic (100 KB in 20-byte chunks: 2 s to HTML, 4 s
/// to the terminal). Past ``displayThreshold`` the tail changes only once the text that arrived
/// since it last changed reaches a sixteenth of the open part, so each byte is rendered about 17
/// times however long the part grows, and the display lags by at most that sixteenth.
///
/// A render costs what the tail shows, which references may make far more than the open part:
/// each `[x]` copies its definition's destination, so 900 bytes of references to a 4 KB
/// destination showed 400 KB, rendered again on every update (5 KB in 5-byte chunks took 7 s to
/// the terminal: fuzz seed 1455). Where the last tail shown weighs more than
/// ``amplifiedWeight(openBytes:)`` (``weight(of:)``), it changes only once the text that arrived
/// since pays for it at ``weightPerNewByte``, so the rendering per received byte stays bounded;
/// a reply's own links and references weigh far less.
enum RefreshSchedule {
  /// Open parts whose parse costs up to this (1 KB read) are parsed on every update.
  static let threshold = 1024

  /// Open parts up to this size (8 KB) are shown again on every update that brings text.
  static let displayThreshold = 8 * 1024

  /// Whether the tail of an open part of `openBytes` bytes, of which `newBytes` arrived since the
  /// tail last changed, changes on this update.
  ///
  /// - Complexity: O(1).
  static func isDisplayDue(openBytes: Int, newBytes: Int) -> Bool {
    openBytes <= displayThreshold || newBytes * 16 >= openBytes
  }

  /// ``isDisplayDue(openBytes:newBytes:)`` where the last tail shown weighed `shownWeight`
  /// (``weight(of:)``): past ``amplifiedWeight(openBytes:)`` the new text must pay for it.
  ///
  /// - Complexity: O(1).
  static func isDisplayDue(openBytes: Int, newBytes: Int, shownWeight: Int) -> Bool {
    if shownWeight > amplifiedWeight(openBytes: openBytes) { return newBytes * weightPerNewByte >= shownWeight }
    return isDisplayDue(openBytes: openBytes, newBytes: newBytes)
  }

  /// The weight past which a tail shown for an open part of `openBytes` counts as amplified:
  /// eight times the part, and at least eight times ``threshold``.
  static func amplifiedWeight(openBytes: Int) -> Int { 8 * max(openBytes, threshold) }

  /// The weight of an amplified tail one new byte pays for.
  static let weightPerNewByte = 64

  /// What rendering `document` costs, in bytes: its text, code and HTML, and each link's and
  /// image's destination and title (a reference copies its definition's).
  ///
  /// - Complexity: O(n) in the nodes.
  static func weight(of document: MarkdownDocument) -> Int {
    var total = 0
    for node in document.nodes {
      switch node.kind {
      case .text(let text), .code(let text), .inlineHTML(let text), .htmlBlock(let text): total += text.utf8.count
      case .codeBlock(let info): total += info.code.utf8.count
      case .link(let info), .image(let info): total += info.destination.utf8.count + info.title.utf8.count
      default: total += 1
      }
    }
    return total
  }

  /// What a parse of an open part was found to cost, and how long the part was then.
  struct MeasuredCost: Sendable {
    /// Where the open part starts in the received text.
    var start: Int
    var length: Int
    var cost: Int
  }

  /// How many times its size an open part's wait is counted at most, when its parse costs far
  /// more than its size: 4, so a part waits until the new text is half of it, that is until it has
  /// doubled since its last parse. (At 8 or more it would wait for ever: the new text is part of it.)
  static let costCap = 4

  /// Whether the open part `open`, of which `newBytes` arrived since its last parse, is parsed
  /// on this update.
  ///
  /// A part whose parse costs up to ``threshold`` is parsed on every update. A costlier one waits
  /// until the new text reaches an eighth of its size, or of a quarter of its parse cost when that
  /// is more (up to ``costCap`` times its size, so at most until it has doubled): a paragraph of
  /// 200 `|-|` lines is 1 KB, but cmark-gfm reads about 100 KB to parse it, and parsed every
  /// 128 bytes it streamed 20 times slower than it rendered. `measured` keeps the cost of a part past the threshold, measured again
  /// once the part has grown by an eighth, so the measuring costs O(1) per received byte.
  ///
  /// - Complexity: O(1) amortized past the threshold, else O(`open.count`) (at most 1 KB).
  ///
  /// With `blankLineArrived` (a blank line among the new text: it may have closed the block, and
  /// the blocks after it would wait in the open part), the wait is by size alone.
  static func isDue(
    open: ArraySlice<UInt8>, newBytes: Int, measured: inout MeasuredCost?, blankLineArrived: Bool = false
  ) -> Bool {
    if open.count <= threshold {
      let cost = parseCost(open)
      if blankLineArrived && newBytes * 8 >= open.count { return true }
      return cost <= threshold || newBytes * 8 >= waitBase(size: open.count, cost: cost)
    }
    guard newBytes * 8 >= open.count else { return false }
    if blankLineArrived { return true }
    if let last = measured, last.start == open.startIndex, last.length <= open.count,
      (open.count - last.length) * 8 < last.length
    {
      return newBytes * 8 >= waitBase(size: open.count, cost: last.cost)
    }
    let cost = parseCost(open)
    measured = MeasuredCost(start: open.startIndex, length: open.count, cost: cost)
    return newBytes * 8 >= waitBase(size: open.count, cost: cost)
  }

  /// What the new text must reach eight times over before a part of `size` bytes whose parse
  /// costs `cost` is parsed again: its size, or a quarter of its cost when that is more, at most
  /// ``costCap`` times its size. (A quarter: ordinary parts cost up to a few times their size, and
  /// wait as before.)
  static func waitBase(size: Int, cost: Int) -> Int {
    min(max(size, cost / 4), costCap * size)
  }

  /// What a parse of `open` reads: its size, plus
  /// - for each line that may be a table's delimiter row (only `|`, `-`, `:` and blanks, with a
  ///   `-`), the text before it again, up to ``InputLimits/maxTableHeaderScan`` (1 KB by default);
  /// - for each word (bytes between blanks and line breaks) with more than one autolink candidate
  ///   (`@`, `:` after a letter, `www.`), the word again per candidate after the first: cmark-gfm's
  ///   autolinker reads the word from each candidate on, so a 2 KB word `a@a@…` costs a thousand
  ///   reads of it (the input guard's ``InputLimits/maxAutolinkScanBytes`` caps that per parse
  ///   and mebibyte parsed, not per stream).
  ///
  /// - Complexity: O(n).
  static func parseCost(_ open: ArraySlice<UInt8>) -> Int {
    let rescanLimit = InputLimits.default.maxTableHeaderScan
    var cost = open.count
    var lineStart = open.startIndex
    var dashes = false
    var onlyDelimiterBytes = true
    var wordStart = open.startIndex
    var candidates = 0
    for index in open.indices {
      let byte = open[index]
      switch byte {
      case ASCII.newline, ASCII.carriageReturn, ASCII.space, ASCII.tab:
        if candidates > 1 { cost += (candidates - 1) * (index - wordStart) }
        wordStart = index + 1
        candidates = 0
        guard byte == ASCII.newline || byte == ASCII.carriageReturn else { continue }
        if dashes && onlyDelimiterBytes { cost += min(lineStart - open.startIndex, rescanLimit) }
        lineStart = index + 1
        dashes = false
        onlyDelimiterBytes = true
      case ASCII.hyphen:
        dashes = true
      case ASCII.pipe:
        break
      case ASCII.colon:
        if index > wordStart && ASCII.isLetter(open[index - 1]) { candidates += 1 }
      case UInt8(ascii: "@"):
        candidates += 1
        onlyDelimiterBytes = false
      case UInt8(ascii: "."):
        if index - wordStart >= 3, open[index - 3] | 0x20 == UInt8(ascii: "w"),
          open[index - 2] | 0x20 == UInt8(ascii: "w"),
          open[index - 1] | 0x20 == UInt8(ascii: "w")
        {
          candidates += 1
        }
        onlyDelimiterBytes = false
      default:
        onlyDelimiterBytes = false
      }
    }
    if candidates > 1 { cost += (candidates - 1) * (open.endIndex - wordStart) }
    if dashes && onlyDelimiterBytes { cost += min(lineStart - open.startIndex, rescanLimit) }
    return cost
  }
}
