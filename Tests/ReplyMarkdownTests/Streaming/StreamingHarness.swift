import Foundation

@testable import ReplyMarkdown

/// Helpers shared by the streaming tests: feeding chunkings, normalising HTML as the shared
/// acceptance data writes it, and reading the shared cases.
enum StreamingHarness {
  /// `text` streamed in `chunk`-byte pieces to HTML under `policy`, finished.
  static func streamedHTML(_ text: String, chunk: Int, policy: MarkdownStream.ReferencePolicy = .live) -> String {
    var stream = MarkdownStream()
    stream.referencePolicy = policy
    var html = MarkdownStreamHTMLRenderer()
    let bytes = Array(text.utf8)
    for start in stride(from: 0, to: bytes.count, by: max(chunk, 1)) {
      html.apply(stream.feed(bytes: bytes[start..<min(bytes.count, start + max(chunk, 1))]))
    }
    html.apply(stream.finish())
    return html.html
  }

  /// `text` streamed in `chunk`-byte pieces to HTML under `policy` (without a tail when not
  /// `showsTail`), finished: the consumer's final HTML, what a writer that cannot take back
  /// writes (`replykit stream` into a pipe: committed HTML as it commits, the rest at the end),
  /// and whether the final update rewrote committed HTML.
  static func piped(
    _ text: String, chunk: Int, options: ParseOptions = .github, policy: MarkdownStream.ReferencePolicy,
    showsTail: Bool = true
  ) -> (html: String, written: String, rewrote: Bool) {
    var stream = MarkdownStream(options: options)
    stream.referencePolicy = policy
    stream.showsTail = showsTail
    var html = MarkdownStreamHTMLRenderer()
    let bytes = Array(text.utf8)
    var written: [UInt8] = []
    for start in stride(from: 0, to: bytes.count, by: max(chunk, 1)) {
      html.apply(stream.feed(bytes: bytes[start..<min(bytes.count, start + max(chunk, 1))]))
      if html.committedLength > written.count { written += html.utf8(written.count..<html.committedLength) }
    }
    html.apply(stream.finish())
    written += html.utf8(min(written.count, html.utf8Count)..<html.utf8Count)
    return (html.html, String(decoding: written, as: UTF8.self), html.rewroteCommitted)
  }

  /// Streams `text` in `chunk`-byte pieces to HTML, handing every update (the final one too,
  /// with a chunk length of 0) and its chunk's length to `inspect` before the consumer applies
  /// it; returns the final HTML.
  static func streamInspecting(
    _ text: String, chunk: Int, _ inspect: (MarkdownStreamUpdate, Int) throws -> Void
  ) rethrows -> String {
    let bytes = Array(text.utf8)
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + max(chunk, 1))
      let update = stream.feed(bytes: bytes[offset..<end])
      try inspect(update, end - offset)
      html.apply(update)
      offset = end
    }
    let final = stream.finish()
    try inspect(final, 0)
    html.apply(final)
    return html.html
  }

  /// The HTML shown after each update of `text` streamed one character at a time, and after
  /// `finish()` when `finishing`.
  static func htmlDisplays(_ text: String, finishing: Bool) -> [String] {
    var stream = MarkdownStream()
    var consumer = MarkdownStreamHTMLRenderer()
    var shown: [String] = []
    for character in text {
      consumer.apply(stream.feed(String(character)))
      shown.append(consumer.html)
    }
    if finishing {
      consumer.apply(stream.finish())
      shown.append(consumer.html)
    }
    return shown
  }

  /// Streams `text` in byte chunks of `chunk` into the three consumers at once (terminal lines
  /// `width` wide), returning each one's output after `finish()`.
  static func streamAllConsumers(_ text: String, chunk: Int, width: Int = 60)
    -> (html: String, plain: String, terminalLines: [String])
  {
    let bytes = Array(text.utf8)
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    var plain = MarkdownStreamPlainRenderer()
    var terminal = MarkdownStreamANSIRenderer(renderer: ANSIRenderer(options: ANSIOptions(width: width)))
    var offset = 0
    while offset < bytes.count {
      let update = stream.feed(bytes: bytes[offset..<min(bytes.count, offset + chunk)])
      html.apply(update)
      plain.apply(update)
      terminal.apply(update)
      offset += chunk
    }
    let last = stream.finish()
    html.apply(last)
    plain.apply(last)
    terminal.apply(last)
    return (html.html, plain.text, terminal.committedLines)
  }

  /// The corpus replies (empty when the corpus is missing; `corpusIsComplete` then fails).
  static let corpus: [(name: String, markdown: String)] = (try? SharedData.corpusReplies()) ?? []

  /// The options the shared cases are written for: GitHub's flavour with double-tilde
  /// strikethrough (W05: cmark-gfm strikes `H~2~O` otherwise) and raw HTML kept (H03).
  static let caseOptions: ParseOptions = [.github, .strikethroughDoubleTilde]
  static let caseRenderer = HTMLRenderer(options: [.unsafe])

  /// The README's normalisation of our HTML.
  static func normalise(_ html: String) -> String {
    var text = html
    while text.hasSuffix("\n") { text.removeLast() }
    text = text.replacing(">\n<", with: "><")
    text = text.replacing("\n", with: "␤")
    text = text.replacing("<del>", with: "<s>").replacing("</del>", with: "</s>")
    text = text.replacing("<a data-pending=\"\">", with: "<a pending>")
    return text
  }

  /// The display after feeding `text` in one chunk (the stream not finished).
  static func display(_ text: String, options: ParseOptions = caseOptions, renderer: HTMLRenderer = caseRenderer)
    -> String
  {
    var stream = MarkdownStream(options: options)
    var html = MarkdownStreamHTMLRenderer(renderer: renderer)
    html.apply(stream.feed(text))
    return html.html
  }

  /// One frame of a stream: the HTML shown and the committed prefix of it.
  struct Frame {
    let html: String
    let committed: String
  }

  /// Streams `chunks` (strings), returning every frame and the final HTML.
  /// Streams `chunks` (strings), returning every frame (only when `recordFrames`: each costs the
  /// whole HTML) and the final HTML.
  static func stream(
    _ chunks: [String], options: ParseOptions = .github, renderer: HTMLRenderer = HTMLRenderer(),
    recordFrames: Bool = true
  ) -> (frames: [Frame], final: String) {
    var stream = MarkdownStream(options: options)
    var html = MarkdownStreamHTMLRenderer(renderer: renderer)
    var frames: [Frame] = []
    for chunk in chunks {
      html.apply(stream.feed(chunk))
      if recordFrames { frames.append(Frame(html: html.html, committed: html.committedHTML)) }
    }
    html.apply(stream.finish())
    return (frames, html.html)
  }

  /// Streams `bytes` in the given chunk lengths through the byte adapter.
  static func streamBytes(
    _ bytes: [UInt8], lengths: [Int], options: ParseOptions = .github, recordFrames: Bool = true
  ) -> (frames: [String], final: String) {
    var stream = MarkdownStream(options: options)
    var html = MarkdownStreamHTMLRenderer()
    var frames: [String] = []
    var offset = 0
    for length in lengths where offset < bytes.count {
      let end = min(bytes.count, offset + length)
      html.apply(stream.feed(bytes: bytes[offset..<end]))
      if recordFrames { frames.append(html.html) }
      offset = end
    }
    if offset < bytes.count { html.apply(stream.feed(bytes: bytes[offset...])) }
    html.apply(stream.finish())
    return (frames, html.html)
  }

  /// The bytes a stream parses for `lines` fed one per chunk, with or without its shortcuts.
  static func parsedBytes(_ lines: [String], fastPaths: Bool) -> Int {
    var stream = MarkdownStream()
    stream.fastPaths = fastPaths
    var total = 0
    for line in lines { total += stream.feed(line).statistics.parsedBytes }
    return total
  }

  /// A deterministic generator (SplitMix64) for seeded random chunkings.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static func randomLengths(total: Int, seed: UInt64, maximum: Int = 12) -> [Int] {
    var generator = SeededGenerator(state: seed)
    var lengths: [Int] = []
    var sum = 0
    while sum < total {
      let length = Int.random(in: 1...maximum, using: &generator)
      lengths.append(length)
      sum += length
    }
    return lengths
  }

  /// Chunk lengths that feed every byte of a multi-byte UTF-8 sequence alone and the ASCII
  /// between them in random runs of 1 to 20 bytes.
  static func splittingMultiByteCharacters(_ bytes: [UInt8], seed: UInt64) -> [Int] {
    var generator = SeededGenerator(state: seed)
    var lengths: [Int] = []
    var index = 0
    while index < bytes.count {
      guard bytes[index] < 0x80 else {
        lengths.append(1)
        index += 1
        continue
      }
      var run = 0
      let limit = Int.random(in: 1...20, using: &generator)
      while index < bytes.count && bytes[index] < 0x80 && run < limit {
        run += 1
        index += 1
      }
      lengths.append(run)
    }
    return lengths
  }

  /// Splits `text` into Characters chunks of random sizes.
  static func randomCharacterChunks(_ text: String, seed: UInt64, maximum: Int = 12) -> [String] {
    let characters = Array(text)
    var chunks: [String] = []
    var offset = 0
    for length in randomLengths(total: characters.count, seed: seed, maximum: maximum) where offset < characters.count {
      let end = min(characters.count, offset + length)
      chunks.append(String(characters[offset..<end]))
      offset = end
    }
    return chunks
  }

  /// The delimiter characters of P3, in the order they appear in the visible text of `html`
  /// (tags removed, the four entities decoded).
  static func delimiterSequence(_ html: String) -> [Character] {
    var visible = ""
    var inTag = false
    for character in html {
      if character == "<" {
        inTag = true
      } else if character == ">" && inTag {
        inTag = false
      } else if !inTag {
        visible.append(character)
      }
    }
    visible = visible.replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
      .replacing("&amp;", with: "&")
    let delimiters: Set<Character> = ["*", "_", "~", "`", "|", "#", "-", "=", ">", "[", "]", "(", ")", "<", "$"]
    return visible.filter { delimiters.contains($0) }
  }

  /// The shared streaming data folder, or nil when `../shared` is absent.
  static var streamingFolder: URL? {
    SharedData.sharedRoot?.appendingPathComponent("streaming")
  }

  /// Our own streaming acceptance fixtures (`Corpus/streaming/`), always present.
  static let fixturesFolder = SharedData.repositoryRoot.appendingPathComponent("Corpus/streaming")

  /// The JSON lines of a file of `../shared/streaming` (none when it is absent).
  static func jsonLines(_ name: String) throws -> [[String: Any]] {
    guard let folder = streamingFolder else { return [] }
    return try jsonLines(at: folder.appendingPathComponent(name))
  }

  static func jsonLines(at url: URL) throws -> [[String: Any]] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return try text.split(separator: "\n").compactMap {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  /// Checks that hold for every frame of any chunking, whatever the input: no CR and no U+FFFD
  /// shown, no raw-syntax flash (P3: the delimiters shown appear, in order, among those of the
  /// final rendering) and no grapheme that later grows (every non-ASCII Character shown is a
  /// Character of the final rendering). Returns one message per frame that breaks one.
  static func frameViolations(_ frames: [Frame], final: String) -> [String] {
    let finalDelimiters = delimiterSequence(final)
    let finalCharacters = Set(final)
    var violations: [String] = []
    for (index, frame) in frames.enumerated() {
      let html = frame.html
      if html.contains("\r") { violations.append("frame \(index) shows a CR") }
      if html.contains("\u{FFFD}") { violations.append("frame \(index) shows U+FFFD") }
      if !isSubsequence(delimiterSequence(html), of: finalDelimiters) {
        violations.append("frame \(index) flashes a delimiter: \(normalise(html))")
      }
      for character in html where !character.isASCII && !finalCharacters.contains(character) {
        violations.append("frame \(index) shows \(character.debugDescription), not a grapheme of the final output")
      }
    }
    return violations
  }

  static func isSubsequence(_ shown: [Character], of all: [Character]) -> Bool {
    var next = all.startIndex
    for character in shown {
      guard let found = all[next...].firstIndex(of: character) else { return false }
      next = found + 1
    }
    return true
  }
}
