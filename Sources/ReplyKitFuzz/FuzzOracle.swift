import Foundation
import ReplyMarkdown

/// The checks one fuzz input must pass, for every renderer ReplyKit has.
///
/// - No crash (the process survives).
/// - HTML equal to cmark-gfm's own `cmark_render_html` of the same text; when the guard changed
///   the text, equal to cmark-gfm's rendering of the guarded text, and the guard reported it.
/// - Plain text free of consumed markup; terminal text within its width and free of controls;
///   streaming in random chunks ending in the one-shot HTML, every update within
///   ``StreamingBound`` (check `streaming-bound`), no display showing the healer's placeholder
///   destination or strikethrough separator (check `streaming-marker`) or more blocks of a kind
///   than the text received so far or the whole reply (check `streaming-structure`); and streaming as into a
///   pipe, where nothing written is taken back, ending in it too (check `streaming-pipe`; HTML
///   also in chunks of 1 to 4 bytes, up to 8 KB). The
///   plain-text and terminal consumers take the same updates and end in the one-shot plain text
///   and terminal lines (checks `streaming-plain`, `streaming-ansi`, `streaming-pipe-plain`,
///   `streaming-pipe-ansi`). The stream's shortcuts (words added without a parse, a clean point in
///   a long paragraph, an open fence's code) show what a parse after every update shows (check
///   `streaming-shortcuts`).
/// - Time per input under ``timeBudget(forBytes:parseSeconds:)`` and each output under
///   ``outputBound(forBytes:)``.
///
/// A new renderer adds one entry to ``checks``.
public struct FuzzOracle: Sendable {
  /// One fuzz case: the input and how to parse and render it.
  public struct Input: Sendable {
    /// The markdown, as bytes (invalid UTF-8 included).
    public var bytes: [UInt8]
    /// Smart punctuation on or off (GitHub's options otherwise).
    public var smart: Bool
    /// HTML in unsafe mode (raw HTML kept) or safe mode.
    public var unsafe: Bool

    /// Creates an input.
    public init(bytes: [UInt8], smart: Bool, unsafe: Bool) {
      self.bytes = bytes
      self.smart = smart
      self.unsafe = unsafe
    }

    /// The parse options.
    public var parseOptions: ParseOptions { smart ? [.github, .smartPunctuation] : .github }
  }

  /// A failed check: which one, and what was seen.
  public struct Failure: Error, Sendable, Equatable {
    /// The check's name (`html-differential`, `time`, ...); minimisation keeps it.
    public var check: String
    /// Details for the report.
    public var detail: String
  }

  /// What one check sees: the input, the guarded text, the parsed document.
  public struct Context {
    /// The input.
    public let input: Input
    /// The input as text.
    public let text: String
    /// The guard's result for the input.
    public let guarded: GuardedInput
    /// The document parsed from the input.
    public let document: MarkdownDocument
  }

  /// One renderer's checks: returns the output size, or throws a ``Failure``.
  public typealias Check = @Sendable (Context) throws(Failure) -> Int

  /// The checks, one per renderer.
  public static let checks: [(name: String, check: Check)] = [
    ("html", htmlCheck),
    ("plain", plainCheck),
    ("ansi", ansiCheck),
    ("streaming", streamingCheck),
    ("streaming-pipe", pipeCheck),
    ("streaming-structure", structureCheck),
    ("streaming-shortcuts", shortcutsCheck),
  ]

  /// Checks whose time does not count toward ``timeBudget(forBytes:parseSeconds:)``: they render
  /// once per update, which is the check's cost, not the library's.
  static let untimedChecks: Set<String> = ["streaming-structure", "streaming-shortcuts"]

  /// The CPU time allowed for one input: half a second plus 10 µs per byte (64 kB: 1.15 s), plus
  /// ``parsesAllowed`` times the one-shot parse's own time, `parseSeconds`.
  ///
  /// The checks stream the input several times, and each stream parses its bytes again, up to the
  /// stated bound (``StreamingBound``, asserted as a count). On most inputs cmark-gfm parses a few
  /// hundred MB a second and the per-byte term covers it; on some it is a hundred times slower
  /// (about 1,500 lines of `[x]: u` in one paragraph before a long line: 2 µs a byte in the
  /// `cmark-gfm` tool itself), and the streams, which parse those bytes again, are as slow. The
  /// budget then grows with that parse, so the check still catches work of the library's own
  /// that grows faster than its input, and no longer fails on cmark-gfm's cost per byte.
  public static func timeBudget(forBytes count: Int, parseSeconds: Double = 0) -> Double {
    0.5 + Double(count) * 10e-6 + Double(parsesAllowed) * max(parseSeconds, 0)
  }

  /// Whether a one-shot parse (the guard and cmark-gfm) of `bytes` bytes that took `seconds` is
  /// too slow on its own: past ``timeBudget(forBytes:parseSeconds:)`` without any parse's
  /// allowance. The budget of the other checks grows with the parse's time, so a parse that
  /// took a minute (fuzz seed 1448: 43 KB past the table cells' limit) passed them.
  public static func parseIsTooSlow(seconds: Double, bytes: Int) -> Bool {
    seconds > timeBudget(forBytes: bytes)
  }

  /// How many one-shot parses' time ``timeBudget(forBytes:parseSeconds:)`` adds: the streaming
  /// checks took 10 to 20 times the one-shot parse on such inputs (fuzz seeds 1370 and
  /// 1371).
  public static let parsesAllowed = 24

  /// The output allowed for one input, per renderer: 64 bytes per input byte plus 4 MiB (table
  /// padding up to ``InputLimits/maxTableCells`` cells).
  public static func outputBound(forBytes count: Int) -> Int { 64 * count + (4 << 20) }

  /// Whether to time inputs (off under sanitizers, which are slow).
  public var checksTime: Bool

  /// Creates an oracle.
  public init(checksTime: Bool = true) { self.checksTime = checksTime }

  /// Runs every check on `input`.
  public func check(_ input: Input) throws(Failure) {
    let started = Self.threadCPUTime()
    let text = String(decoding: input.bytes, as: UTF8.self)
    let guarded = InputGuard.apply(text, options: input.parseOptions)
    let document = MarkdownDocument(text, options: input.parseOptions)
    if guarded.diagnostics != document.diagnostics {
      throw Failure(check: "diagnostics", detail: "the document's diagnostics differ from the guard's")
    }
    if guarded.diagnostics.isEmpty && guarded.text != text {
      throw Failure(check: "silent-change", detail: "the guard changed the text without a diagnostic")
    }
    let context = Context(input: input, text: text, guarded: guarded, document: document)
    let parseSeconds = Self.threadCPUTime() - started
    if checksTime && Self.parseIsTooSlow(seconds: parseSeconds, bytes: input.bytes.count) {
      throw Failure(
        check: "time",
        detail: "the one-shot parse took \(String(format: "%.2f", parseSeconds)) s, past its budget of "
          + "\(String(format: "%.2f", Self.timeBudget(forBytes: input.bytes.count))) s")
    }
    var times = "parse \(String(format: "%.2f", parseSeconds))"
    var untimed = 0.0
    for (name, check) in Self.checks {
      let checkStarted = Self.threadCPUTime()
      let size = try check(context)
      let elapsed = Self.threadCPUTime() - checkStarted
      times += ", \(name) \(String(format: "%.2f", elapsed))"
      if Self.untimedChecks.contains(name) { untimed += elapsed }
      if size > Self.outputBound(forBytes: input.bytes.count) {
        throw Failure(check: "output-bound", detail: "\(name): \(size) bytes from \(input.bytes.count)")
      }
    }
    let seconds = Self.threadCPUTime() - started - untimed
    let budget = Self.timeBudget(forBytes: input.bytes.count, parseSeconds: parseSeconds)
    if checksTime && seconds > budget {
      throw Failure(
        check: "time",
        detail:
          "\(String(format: "%.2f", seconds)) s for \(input.bytes.count) bytes, budget \(String(format: "%.2f", budget)) s (\(times))"
      )
    }
  }

  /// Plain text keeps no markup the parser consumed: a markup character (`*`, `_`, `~`, a
  /// backtick, `[`, `]`, `<`) appears in the output only if some text, code, HTML, URL or title of
  /// the document holds it. Entities in raw HTML count as the characters they decode to: the
  /// renderers decode them with `HTMLText`, and so does this check.
  static let plainCheck: Check = { context throws(Failure) in
    let plain = PlainTextRenderer().render(context.document)
    let markup = Set("*_~`[]<".unicodeScalars)
    var literal = Set<Unicode.Scalar>()
    for node in context.document.nodes {
      switch node.kind {
      case .text(let text), .code(let text):
        literal.formUnion(text.unicodeScalars.filter(markup.contains))
      case .inlineHTML(let html):
        // Its characters, and those its entities decode to as the renderers decode them.
        literal.formUnion(html.unicodeScalars.filter(markup.contains))
        if html.utf8.contains(UInt8(ascii: "&")) {
          let lines = html.split(separator: "\n").map(String.init)
          literal.formUnion(HTMLText.decodeEntities(lines).joined().unicodeScalars.filter(markup.contains))
        }
      case .htmlBlock(let html):
        // Its characters, and the text the renderers show of it (`&#96;` there is a backtick).
        literal.formUnion(html.unicodeScalars.filter(markup.contains))
        if html.utf8.contains(UInt8(ascii: "&")) {
          literal.formUnion(HTMLText.blockLines(html).joined().unicodeScalars.filter(markup.contains))
        }
      case .codeBlock(let info):
        literal.formUnion((info.code + info.info).unicodeScalars.filter(markup.contains))
      case .link(let link), .image(let link):
        literal.formUnion((link.destination + link.title).unicodeScalars.filter(markup.contains))
      case .footnoteReference(let info):
        literal.formUnion(info.label.unicodeScalars.filter(markup.contains))
        literal.formUnion(["[", "]"])  // footnote references show as [n]
      case .footnoteDefinition(let info):
        literal.formUnion(info.label.unicodeScalars.filter(markup.contains))
        literal.formUnion(["[", "]"])
      case .item(let task) where task != nil:
        literal.formUnion(["[", "]"])  // task boxes show as [ ] and [x]
      default:
        break
      }
    }
    if let stray = plain.unicodeScalars.first(where: { markup.contains($0) && !literal.contains($0) }) {
      throw Failure(
        check: "plain-markup", detail: "\(stray.escaped(asASCII: true)) in \(plain.prefix(200).debugDescription)")
    }
    return plain.utf8.count
  }

  /// Terminal text fits its width and carries no control character at all (colour and hyperlinks
  /// off: the renderer's own sequences are off too), so none from the input can reach a terminal.
  static let ansiCheck: Check = { context throws(Failure) in
    let width = 20 + Int(fnv1a(context.input.bytes) % 101)
    let lines = ANSIRenderer(options: ANSIOptions(width: width, color: false, hyperlinks: false)).renderLines(
      context.document)
    var size = 0
    for line in lines {
      size += line.utf8.count + 1
      if DisplayWidth.of(line) > width {
        throw Failure(
          check: "ansi-width", detail: "\(DisplayWidth.of(line)) > \(width): \(line.prefix(120).debugDescription)")
      }
      if let control = line.unicodeScalars.first(where: isTerminalControl) {
        throw Failure(
          check: "ansi-control", detail: "U+\(String(control.value, radix: 16)) in \(line.prefix(120).debugDescription)"
        )
      }
    }
    return size
  }

  /// Streaming in the chunks of ``streamingCheck``, no display holds more blocks of a kind than the
  /// text received so far or the whole reply, each rendered at once (a heal that turned the open
  /// paragraph's last line into an underline, a break, a fence or an item showed one). Not where
  /// the guard acted (on a committed block or on the heal shown), whose budgets are per parse. A
  /// render per update: not timed
  /// (``untimedChecks``).
  static let structureCheck: Check = { context throws(Failure) in
    guard context.document.diagnostics.isEmpty else { return 0 }
    var stream = MarkdownStream(options: context.input.parseOptions)
    let renderOptions: HTMLRenderer.Options = context.input.unsafe ? [.unsafe] : []
    var consumer = MarkdownStreamHTMLRenderer(renderer: HTMLRenderer(options: renderOptions))
    let finalCounts = tagCounts(in: HTMLRenderer(options: renderOptions).render(context.document))
    let bytes = context.input.bytes
    // The text so far rendered at once, and where the tail shown was made: an update may show the
    // last tail again (the refresh schedule did not heal), which shows the text as it was then.
    // The text so far is what the stream received: a character whose bytes have not all arrived
    // waits (seed 1293: `'*`, a line `:-` and the first byte of a character is a table, not the
    // paragraph the byte decoded as U+FFFD makes).
    func prefixHTML(_ text: String) -> String? {
      let prefix = MarkdownDocument(text, options: context.input.parseOptions)
      return prefix.diagnostics.isEmpty ? HTMLRenderer(options: renderOptions).render(prefix) : nil
    }
    var tailCounts = [Int](repeating: 0, count: structureTags.count)
    var tailSerial = -1
    var tailKnown = false
    // Every update of an input up to 2 KB; of a longer one, one in `stride` (a render per update
    // made the fuzzer half as fast). A display showing a tail made at an update not looked at is
    // skipped: the text it shows is not known.
    let stride = max(1, bytes.count / 2048)
    var updates = 0
    for chunk in chunks(of: bytes, seed: fnv1a(bytes)) {
      let end = chunk.upperBound
      let update = stream.feed(bytes: bytes[chunk])
      consumer.apply(update)
      updates += 1
      if stream.guardChangedInput { return 0 }
      let newTail = update.tail.serial == 0 || update.tail.serial != tailSerial
      tailSerial = update.tail.serial
      // Nor where the guard acted on the heal the display shows: a heal of a long paragraph was
      // split before a table header, which the whole text is not (fuzz seed 1364).
      if !update.tail.document.diagnostics.isEmpty {
        tailKnown = false
        continue
      }
      guard updates % stride == 0 else {
        if newTail { tailKnown = false }
        continue
      }
      guard let now = prefixHTML(stream.text) else { return 0 }
      let nowCounts = tagCounts(in: now)
      if newTail {
        tailCounts = nowCounts
        tailKnown = true
      }
      guard tailKnown else { continue }
      let display = consumer.html
      for (index, shown) in tagCounts(in: display).enumerated()
      where shown > max(nowCounts[index], tailCounts[index], finalCounts[index]) {
        throw Failure(
          check: "streaming-structure",
          detail:
            "after \(end) bytes the display shows \(shown) \(structureTags[index]) where the text so far has \(nowCounts[index]): …\(display.suffix(160).debugDescription)"
        )
      }
    }
    return 0
  }

  /// Streaming with the stream's shortcuts and without them (``MarkdownStream/fastPaths``: every
  /// update healed by a parse), in chunks of their own, shows the same HTML and plain text after
  /// every update that healed: a shortcut saves work and never changes what shows. Inputs up to
  /// 4 KB (the parsed path heals the whole open part on every update), and not where the input
  /// guard acted: its limits count what one parse reads, and a shortcut parses less (a run of 69
  /// `_` showed in part, brackets past the 400th of a paragraph as links). Not timed
  /// (``untimedChecks``).
  static let shortcutsCheck: Check = { context throws(Failure) in
    let bytes = context.input.bytes
    guard bytes.count <= 4096, context.document.diagnostics.isEmpty else { return 0 }
    let chunks = chunks(of: bytes, seed: fnv1a(bytes) &+ 1)
    if let difference = shortcutDifference(
      bytes, chunks: chunks, options: context.input.parseOptions, unsafe: context.input.unsafe,
      cpuSeconds: shortcutsCheckSeconds)
    {
      throw Failure(check: "streaming-shortcuts", detail: difference)
    }
    return 0
  }

  /// The first update after which streaming `bytes` in `chunks` with the stream's shortcuts shows
  /// other HTML or plain text than without them, described; nil when there is none. Compared
  /// after the updates whose tail both streams made anew and after the last: where the open
  /// part's parse waits (``MarkdownStream``'s refresh schedule), a stream shows its last tail
  /// again, and words added without a parse show at once, by design; the wait measures what a
  /// parse would read, which a clean point makes less.
  ///
  /// Past `cpuSeconds` of the calling thread's time it stops and answers nil: without its
  /// shortcuts a stream re-parses the open part on every update, which on an input cmark-gfm reads
  /// slowly (`www._` repeated, each a word its autolinker scans again) kept the fuzzer on one
  /// input past its 60-second watchdog.
  package static func shortcutDifference(
    _ bytes: [UInt8], chunks: [Range<Int>], options: ParseOptions, unsafe: Bool,
    cpuSeconds: Double = .infinity
  ) -> String? {
    let started = threadCPUTime()
    let renderer = HTMLRenderer(options: unsafe ? [.unsafe] : [])
    var fast = MarkdownStream(options: options)
    var parsed = MarkdownStream(options: options)
    parsed.fastPaths = false
    var fastHTML = MarkdownStreamHTMLRenderer(renderer: renderer)
    var parsedHTML = MarkdownStreamHTMLRenderer(renderer: renderer)
    var fastPlain = MarkdownStreamPlainRenderer()
    var parsedPlain = MarkdownStreamPlainRenderer()
    var fastSerial = -1
    var parsedSerial = -1
    for chunk in chunks + [bytes.count..<bytes.count] {
      if threadCPUTime() - started > cpuSeconds { return nil }
      let last = chunk.isEmpty
      let a = last ? fast.finish() : fast.feed(bytes: bytes[chunk])
      let b = last ? parsed.finish() : parsed.feed(bytes: bytes[chunk])
      fastHTML.apply(a)
      parsedHTML.apply(b)
      fastPlain.apply(a)
      parsedPlain.apply(b)
      let healed = a.tail.serial != fastSerial && b.tail.serial != parsedSerial
      fastSerial = a.tail.serial
      parsedSerial = b.tail.serial
      guard healed || last else { continue }
      // Nor once the guard acts on the text so far, or on a heal: a prefix may hold what the whole
      // does not (a run of 200 `*` in a code span still open is a delimiter run, whose characters
      // past 64 it escapes, and a heal goes on from the escaped text).
      if !last {
        let received = String(decoding: bytes[..<chunk.upperBound], as: UTF8.self)
        if !InputGuard.apply(received, options: options).diagnostics.isEmpty
          || !(a.tail.document.diagnostics.isEmpty && b.tail.document.diagnostics.isEmpty)
        {
          return nil
        }
      }
      let shown = fastHTML.utf8(0..<fastHTML.utf8Count)
      let expected = parsedHTML.utf8(0..<parsedHTML.utf8Count)
      if shown != expected {
        let same = zip(shown, expected).prefix(while: { $0 == $1 }).count
        func excerpt(_ html: ArraySlice<UInt8>) -> String {
          String(decoding: html.dropFirst(max(0, same - 60)).prefix(200), as: UTF8.self).debugDescription
        }
        return
          "after \(chunk.upperBound) bytes the HTML shows …\(excerpt(shown)) where a parse shows …\(excerpt(expected))"
      }
      if fastPlain.text != parsedPlain.text {
        return "after \(chunk.upperBound) bytes the plain text shows …\(fastPlain.text.suffix(160).debugDescription) "
          + "where a parse shows …\(parsedPlain.text.suffix(160).debugDescription)"
      }
    }
    return nil
  }

  /// The CPU time ``shortcutsCheck`` spends on one input at most (its parsed stream is slow on
  /// purpose).
  static let shortcutsCheckSeconds = 5.0

  /// The block tags ``structureCheck`` counts in each display.
  static let structureTags = ["<h1", "<h2", "<h3", "<h4", "<h5", "<h6", "<hr", "<pre", "<table", "<li", "<blockquote"]

  /// How many times each of ``structureTags`` occurs in `html`, in their order: one pass over its
  /// UTF-8 (Foundation's `range(of:)`, a search per tag and occurrence, took minutes on a display
  /// of a 2,000-row table; fuzz seed 1340).
  static func tagCounts(in html: String) -> [Int] {
    var counts = [Int](repeating: 0, count: structureTags.count)
    let utf8 = html.utf8
    var index = utf8.startIndex
    while let open = utf8[index...].firstIndex(of: UInt8(ascii: "<")) {
      let rest = utf8[open...]
      for (tagIndex, tag) in structureTagBytes.enumerated() where rest.starts(with: tag) { counts[tagIndex] += 1 }
      index = utf8.index(after: open)
    }
    return counts
  }

  /// ``structureTags`` as UTF-8.
  static let structureTagBytes = structureTags.map { Array($0.utf8) }

  /// C0 (but tab), DEL, C1, and bidirectional embedding, override and isolate controls.
  static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return (value < 0x20 && value != 0x09) || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
      || (0x2066...0x2069).contains(value)
  }

  /// Streaming, in chunks cut at places picked from the input's hash, ends in the one-shot HTML
  /// (when no guard acted, in the one-shot parse or in any of the stream's: the guard's budgets are
  /// per parse, and the stream parses in pieces).
  static let streamingCheck: Check = { context throws(Failure) in
    var stream = MarkdownStream(options: context.input.parseOptions)
    let renderOptions: HTMLRenderer.Options = context.input.unsafe ? [.unsafe] : []
    var consumer = MarkdownStreamHTMLRenderer(renderer: HTMLRenderer(options: renderOptions))
    var bound = StreamingBound(policy: stream.referencePolicy)
    let bytes = context.input.bytes
    // The line consumers (Copy text, a terminal) take the same updates.
    let ansiRenderer = ansiCheckRenderer(for: bytes)
    var plain = MarkdownStreamPlainRenderer()
    var ansi = MarkdownStreamANSIRenderer(renderer: ansiRenderer)
    // What the healer writes and takes out again never shows: its placeholder destination and the
    // comment between two strikethrough closers (unless the input holds them itself).
    let received = String(decoding: bytes, as: UTF8.self)
    let markers = ["x-replykit-pending", "<!--\u{1}"].filter { !holds(received, $0) }
    for chunk in chunks(of: bytes, seed: fnv1a(bytes)) {
      let end = chunk.upperBound
      let update = stream.feed(bytes: bytes[chunk])
      do throws(StreamingBound.Violation) {
        try bound.check(update, chunkLength: chunk.count)
      } catch {
        throw Failure(check: "streaming-bound", detail: error.description)
      }
      let edit = consumer.apply(update)
      plain.apply(update)
      ansi.apply(update)
      for marker in markers where holds(edit.appended, marker) {
        throw Failure(
          check: "streaming-marker",
          detail:
            "after \(end) bytes the display shows \(marker.debugDescription): …\(edit.appended.suffix(120).debugDescription)"
        )
      }
    }
    let final = stream.finish()
    do throws(StreamingBound.Violation) {
      try bound.check(final, chunkLength: 0)
    } catch {
      throw Failure(check: "streaming-bound", detail: error.description)
    }
    consumer.apply(final)
    plain.apply(final)
    ansi.apply(final)
    let streamed = consumer.html
    // Also where the input guard acted: the final update is then the whole reply parsed at once.
    let oneShot = HTMLRenderer(options: renderOptions).render(context.document)
    if streamed != oneShot {
      throw Failure(
        check: "streaming",
        detail: "streamed \(streamed.prefix(200).debugDescription) ≠ one-shot \(oneShot.prefix(200).debugDescription)"
      )
    }
    let plainOneShot = PlainTextRenderer().render(context.document)
    if plain.text != plainOneShot {
      throw Failure(
        check: "streaming-plain",
        detail:
          "streamed \(plain.text.prefix(200).debugDescription) ≠ one-shot \(plainOneShot.prefix(200).debugDescription)")
    }
    // A terminal keeps what it wrote, but the consumer's committed lines end as one-shot's.
    let ansiOneShot = ansiRenderer.renderLines(context.document)
    if ansi.committedLines != ansiOneShot || !ansi.tailLines.isEmpty {
      throw Failure(
        check: "streaming-ansi",
        detail: "streamed \(firstDifference(ansi.committedLines + ansi.tailLines, ansiOneShot))")
    }
    return streamed.utf8.count
  }

  /// The terminal renderer of the streaming checks: a width from 20 to 120 columns picked from the
  /// input's hash (``ansiCheck``'s), and colour and hyperlinks each on for half the inputs (styles
  /// and links reopened on every line a committed line leaves open).
  static func ansiCheckRenderer(for bytes: [UInt8]) -> ANSIRenderer {
    let hash = fnv1a(bytes)
    return ANSIRenderer(
      options: ANSIOptions(width: 20 + Int(hash % 101), color: hash & 0x100 != 0, hyperlinks: hash & 0x200 != 0))
  }

  /// Where two line lists first differ, for a report.
  static func firstDifference(_ streamed: [String], _ oneShot: [String]) -> String {
    let index =
      zip(streamed, oneShot).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(streamed.count, oneShot.count)
    let got = index < streamed.count ? streamed[index].prefix(120).debugDescription : "no line"
    let want = index < oneShot.count ? oneShot[index].prefix(120).debugDescription : "no line"
    return "line \(index + 1) of \(streamed.count): \(got) ≠ one-shot line of \(oneShot.count): \(want)"
  }

  /// Streaming as `replykit stream` writes into a pipe, where what is written stays written
  /// (``MarkdownStream/ReferencePolicy/holdUntilFinish``, no tail, committed HTML appended as it
  /// commits and the rest at the end), in chunks cut at other places than ``streamingCheck``'s,
  /// ends in the one-shot HTML, wherever the input guard acted too, and rewrites nothing committed.
  static let pipeCheck: Check = { context throws(Failure) in
    var stream = MarkdownStream(options: context.input.parseOptions)
    stream.referencePolicy = .holdUntilFinish
    stream.showsTail = false
    let renderOptions: HTMLRenderer.Options = context.input.unsafe ? [.unsafe] : []
    var consumer = MarkdownStreamHTMLRenderer(renderer: HTMLRenderer(options: renderOptions))
    let bytes = context.input.bytes
    // Plain text and terminal lines as `replykit stream --to plain|ansi` writes them into a pipe:
    // each line once, as it commits.
    let ansiRenderer = ansiCheckRenderer(for: bytes)
    var plain = MarkdownStreamPlainRenderer()
    var ansi = MarkdownStreamANSIRenderer(renderer: ansiRenderer)
    var plainWritten: [String] = []
    var ansiWritten: [String] = []
    var written: [UInt8] = []
    for chunk in chunks(of: bytes, seed: ~fnv1a(bytes)) {
      let update = stream.feed(bytes: bytes[chunk])
      consumer.apply(update)
      plainWritten += plain.apply(update)
      ansiWritten += ansi.apply(update)
      if consumer.committedLength > written.count {
        written += consumer.utf8(written.count..<consumer.committedLength)
      }
    }
    let final = stream.finish()
    consumer.apply(final)
    plainWritten += plain.apply(final)
    ansiWritten += ansi.apply(final)
    if consumer.utf8Count > written.count {
      written += consumer.utf8(written.count..<consumer.utf8Count)
    }
    // Also where the input guard acted: the stream watches the whole reply's guard, and what it
    // could change is held for the final update, the whole reply parsed at once. Not past the
    // reference links' budget: it charges every bracket the reply's longest definition, which
    // may come after links were written (`replykit stream` then stops with an error).
    let oneShot = HTMLRenderer(options: renderOptions).render(context.document)
    let piped = String(decoding: written, as: UTF8.self)
    let lateBudget = context.document.diagnostics.contains { $0.kind == .referenceExpansion }
    if !lateBudget && (piped != oneShot || consumer.rewroteCommitted) {
      throw Failure(
        check: "streaming-pipe",
        detail: "piped \(piped.prefix(200).debugDescription) ≠ one-shot \(oneShot.prefix(200).debugDescription)"
          + (consumer.rewroteCommitted ? " (the final update rewrote committed HTML)" : ""))
    }
    let plainOneShot = PlainTextRenderer().render(context.document)
    let plainPiped = plainWritten.joined(separator: "\n")
    if !lateBudget && (plainPiped != plainOneShot || plain.rewroteCommitted) {
      throw Failure(
        check: "streaming-pipe-plain",
        detail:
          "piped \(plainPiped.prefix(200).debugDescription) ≠ one-shot \(plainOneShot.prefix(200).debugDescription)"
          + (plain.rewroteCommitted ? " (the final update rewrote committed lines)" : ""))
    }
    let ansiOneShot = ansiRenderer.renderLines(context.document)
    if !lateBudget && (ansiWritten != ansiOneShot || ansi.rewroteCommitted) {
      throw Failure(
        check: "streaming-pipe-ansi",
        detail: "piped \(firstDifference(ansiWritten, ansiOneShot))"
          + (ansi.rewroteCommitted ? " (the final update rewrote committed lines)" : ""))
    }
    // Again in chunks of 1 to 4 bytes: which definitions have closed when a block that uses them
    // commits depends on the chunking, and the long chunks above hid blocks committed with a
    // later definition of their label (a review found them with `replykit stream` at 1 to 5
    // bytes). Up to ``smallChunkPipeLimit`` bytes, for the fuzzer's pace.
    if !lateBudget && bytes.count <= smallChunkPipeLimit {
      var random = SplitMix64(seed: fnv1a(bytes) &+ 0x5A11)
      var small: [Range<Int>] = []
      while (small.last?.upperBound ?? 0) < bytes.count {
        let start = small.last?.upperBound ?? 0
        small.append(start..<min(bytes.count, start + 1 + Int(random.next() % 4)))
      }
      let (piped, rewrote) = pipedHTML(context.input, chunks: small)
      if piped != oneShot || rewrote {
        throw Failure(
          check: "streaming-pipe",
          detail: "in chunks of 1 to 4 bytes, piped \(piped.prefix(200).debugDescription) ≠ one-shot "
            + oneShot.prefix(200).debugDescription + (rewrote ? " (the final update rewrote committed HTML)" : ""))
      }
    }
    return written.count
  }

  /// The largest input ``pipeCheck`` streams again in chunks of 1 to 4 bytes.
  static let smallChunkPipeLimit = 8192

  /// The HTML `replykit stream` writes into a pipe for `input` fed in `chunks`, and whether the
  /// final update rewrote committed HTML.
  static func pipedHTML(_ input: Input, chunks: [Range<Int>]) -> (html: String, rewrote: Bool) {
    var stream = MarkdownStream(options: input.parseOptions)
    stream.referencePolicy = .holdUntilFinish
    stream.showsTail = false
    var consumer = MarkdownStreamHTMLRenderer(renderer: HTMLRenderer(options: input.unsafe ? [.unsafe] : []))
    var written: [UInt8] = []
    for chunk in chunks {
      consumer.apply(stream.feed(bytes: input.bytes[chunk]))
      if consumer.committedLength > written.count {
        written += consumer.utf8(written.count..<consumer.committedLength)
      }
    }
    consumer.apply(stream.finish())
    if consumer.utf8Count > written.count {
      written += consumer.utf8(written.count..<consumer.utf8Count)
    }
    return (String(decoding: written, as: UTF8.self), consumer.rewroteCommitted)
  }

  /// The chunks the streaming checks feed `bytes` in, picked from `seed`: mostly up to 400 bytes,
  /// one in three up to 4 (the checks that compare their displays walk the same ones).
  package static func chunks(of bytes: [UInt8], seed: UInt64) -> [Range<Int>] {
    var random = SplitMix64(seed: seed)
    var chunks: [Range<Int>] = []
    var offset = 0
    while offset < bytes.count {
      let length = 1 + Int(random.next() % UInt64(random.next() % 3 == 0 ? 4 : 400))
      let end = min(bytes.count, offset + length)
      chunks.append(offset..<end)
      offset = end
    }
    return chunks
  }

  /// Whether `text` holds `part`, compared as UTF-8 bytes. Foundation's `contains` converts both
  /// to UTF-16 on every call: on an update whose display is a megabyte of HTML (references past
  /// the reference budget's reach), it took most of the streaming check's time (fuzz seed 1439).
  package static func holds(_ text: String, _ part: String) -> Bool {
    let needle = Array(part.utf8)
    guard let first = needle.first else { return true }
    var text = text
    return text.withUTF8 { bytes in
      guard bytes.count >= needle.count else { return false }
      var start = 0
      let last = bytes.count - needle.count
      while start <= last {
        if bytes[start] == first && needle.indices.allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
        start += 1
      }
      return false
    }
  }

  /// FNV-1a of the input: a seed that makes chunking and width repeatable for a saved input.
  package static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
  }

  /// CPU time of the calling thread in seconds: unlike wall time, it does not grow when other
  /// processes load the machine.
  package static func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Our HTML against cmark-gfm's, on the guarded text.
  static let htmlCheck: Check = { context throws(Failure) in
    let options: HTMLRenderer.Options = context.input.unsafe ? [.unsafe] : []
    let ours = HTMLRenderer(options: options).render(context.document)
    let reference = CmarkReference.html(
      context.guarded.text, options: context.input.parseOptions, renderOptions: options)
    if ours != reference {
      throw Failure(
        check: "html-differential",
        detail: "ours \(ours.prefix(200).debugDescription) ≠ C \(reference.prefix(200).debugDescription)")
    }
    return ours.utf8.count
  }
}
