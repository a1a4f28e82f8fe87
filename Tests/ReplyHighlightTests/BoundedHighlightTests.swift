import ReplyHighlight
import ReplyMarkdown
import Testing

/// Grammars that misbehave stay bounded: a line of 1 MB, thousands of nested brackets, a long fence
/// streamed in small chunks. Every bound is a count (lines and bytes given to the highlighter,
/// spans, output lines), never a time.
@Suite("Highlighting stays bounded")
struct BoundedHighlightTests {
  let highlighter = KSyntaxCodeHighlighter()

  /// Spans in order, not overlapping, inside the line, at most one per byte.
  func spansAreSound(_ spans: [CodeSpan], bytes: Int) -> Bool {
    var end = 0
    for span in spans {
      guard span.range.lowerBound >= end, span.range.upperBound <= bytes, !span.range.isEmpty else { return false }
      end = span.range.upperBound
    }
    return spans.count <= bytes
  }

  @Test("a 1 MB line is left plain and the state passes through it", arguments: ["swift", "python", "json", "sh"])
  func megabyteLine(language name: String) throws {
    let language = try #require(highlighter.language(named: name))
    let opening = highlighter.highlight("/* \"\"\" [ { (", language: language, state: .initial)
    let long = String(repeating: "\"(\\[{/*", count: 150_000)
    #expect(long.utf8.count > 1_000_000)
    let result = highlighter.highlight(long, language: language, state: opening.state)
    #expect(result.spans.isEmpty)
    // The line after it continues from the state before it, as if the long line were not there.
    let next = "let x = 1 # done */ \"\"\" ] } )"
    let after = highlighter.highlight(next, language: language, state: result.state)
    let skipping = highlighter.highlight(next, language: language, state: opening.state)
    #expect(after.spans == skipping.spans)
  }

  @Test("a 1 MB line in a fence: highlighted never, chopped to the width, coloured nowhere")
  func megabyteLineInAFence() {
    let counting = CountingHighlighter()
    let long = String(repeating: "x = [(\"a\\\"b\", {1: 2})] + ", count: 40_000)
    let markdown = "```python\nimport os\n" + long + "\nprint(os)\n```\n"
    let renderer = ANSIRenderer(options: ANSIOptions(width: 80, color: true, highlighter: counting))
    let lines = renderer.renderLines(MarkdownDocument(markdown))
    #expect(counting.counts.calls == 3)
    #expect(counting.counts.engineBytes == "import os".utf8.count + "print(os)".utf8.count)
    // The language label, two short lines, the long line in rows of 78 columns after the gutter.
    let rows = (long.utf8.count + 77) / 78
    #expect(lines.count == 1 + 2 + rows)
    #expect(lines[1].contains("38;5;"))  // `import` is a keyword
    #expect(!lines[2..<(2 + rows)].contains { $0.contains("38;5;") })
  }

  @Test(
    "lines of pathological tokens just under the limit: sound spans, at most one per byte",
    arguments: ["\"\\\"", "((((", "/*/*", "<<<<", "{[({", "'''\"", "\\\\\\\\", "$((${"])
  func pathologicalLines(piece: String) throws {
    let line = String(repeating: piece, count: KSyntaxCodeHighlighter.maximumLineBytes / piece.utf8.count)
    #expect(line.utf8.count <= KSyntaxCodeHighlighter.maximumLineBytes)
    for name in ["c", "python", "json", "swift", "sh", "perl", "html", "typescript"] {
      let language = try #require(highlighter.language(named: name))
      var state = CodeLineState.initial
      for _ in 0..<3 {
        let result = highlighter.highlight(line, language: language, state: state)
        #expect(spansAreSound(result.spans, bytes: line.utf8.count), "\(name)")
        state = result.state
      }
    }
  }

  @Test(
    "20,000 nested brackets, one a line: each line highlighted once, sound spans",
    arguments: ["json", "c", "python", "swift", "sh"])
  func nestedBrackets(language name: String) {
    let counting = CountingHighlighter()
    let depth = 20_000
    let code = String(repeating: "[{(\n", count: depth) + String(repeating: ")}]\n", count: depth)
    let markdown = "```\(name)\n" + code + "```\n"
    let renderer = ANSIRenderer(options: ANSIOptions(width: 40, color: true, highlighter: counting))
    let lines = renderer.renderLines(MarkdownDocument(markdown))
    #expect(counting.counts.calls == 2 * depth)
    #expect(counting.counts.bytes == 6 * depth)
    #expect(lines.count == 1 + 2 * depth)
  }

  @Test("brackets nested 16,000 deep on one line, then 5,000 lines: one call a line")
  func nestedOnOneLine() throws {
    let json = try #require(highlighter.language(named: "json"))
    let lines = [String(repeating: "[", count: 16_000)] + Array(repeating: "1,", count: 5_000)
    let result = highlighter.highlight(lines: lines, language: json)
    #expect(result.count == lines.count)
    for (line, highlighted) in zip(lines, result) {
      #expect(spansAreSound(highlighted.spans, bytes: line.utf8.count))
    }
  }

  @Test(
    "a 100 KB fence streamed in 20-byte chunks: finished lines highlighted at most twice, the open line once a chunk")
  func streamedFence() throws {
    let counting = CountingHighlighter()
    let (code, lineCount) = Self.longSwiftCode()
    let markdown = "```swift\n" + code + "```\n"
    let renderer = ANSIRenderer(options: ANSIOptions(width: 100, color: true, highlighter: counting))
    var stream = MarkdownStream()
    var consumer = MarkdownStreamANSIRenderer(renderer: renderer)
    let bytes = Array(markdown.utf8)
    var start = 0
    var chunks = 0
    while start < bytes.count {
      let end = min(start + 20, bytes.count)
      _ = consumer.apply(stream.feed(bytes: bytes[start..<end]))
      start = end
      chunks += 1
    }
    _ = consumer.apply(stream.finish())
    let counts = counting.counts
    #expect(consumer.committedLines == renderer.renderLines(MarkdownDocument(markdown)))
    // A line at most twice (in the open tail as it settles, then committed), and the open line
    // once a chunk: linear in the fence, whatever its length.
    #expect(counts.calls >= lineCount)
    #expect(counts.calls <= 2 * lineCount + chunks + 2)
    let longest = code.split(separator: "\n").map(\.utf8.count).max() ?? 0
    #expect(counts.bytes <= 2 * code.utf8.count + chunks * longest)
  }

  @Test(
    "the same fence into the HTML consumer: coloured while open, each finished line highlighted at most twice")
  func streamedFenceInHTML() throws {
    let counting = CountingHighlighter()
    let (code, lineCount) = Self.longSwiftCode()
    let markdown = "```swift\n" + code + "```\n"
    let renderer = HTMLRenderer(highlighter: counting)
    var stream = MarkdownStream()
    var consumer = MarkdownStreamHTMLRenderer(renderer: renderer)
    let bytes = Array(markdown.utf8)
    // Half-way, at the end of a line: the open fence shows as the whole of what arrived would.
    let half = try #require(bytes[(bytes.count / 2)...].firstIndex(of: 0x0A)) + 1
    var start = 0
    var chunks = 0
    while start < bytes.count {
      let end = min(start + 20, half > start ? half : bytes.count, bytes.count)
      _ = consumer.apply(stream.feed(bytes: bytes[start..<end]))
      start = end
      chunks += 1
      if end == half {
        let received = String(decoding: bytes[..<half], as: UTF8.self)
        #expect(consumer.html == HTMLRenderer(highlighter: KSyntaxCodeHighlighter()).render(MarkdownDocument(received)))
        #expect(consumer.html.contains("<span class=\"hl-"))
      }
    }
    _ = consumer.apply(stream.finish())
    #expect(consumer.html == HTMLRenderer(highlighter: KSyntaxCodeHighlighter()).render(MarkdownDocument(markdown)))
    let counts = counting.counts
    #expect(counts.calls >= lineCount)
    #expect(counts.calls <= 2 * lineCount + chunks + 2)
  }

  /// About 100 KB of Swift, one statement a line, and its line count.
  static func longSwiftCode() -> (code: String, lines: Int) {
    var code = ""
    var index = 0
    while code.utf8.count < 100_000 {
      code += "    let value\(index) = compute(\"text \\(index)\", [1, 2, 3]) // note \(index)\n"
      index += 1
    }
    return (code, index)
  }
}
