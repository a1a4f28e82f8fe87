import ReplyHighlight
import ReplyMarkdown
import Testing

@Suite("Line state")
struct LineStateTests {
  let highlighter = KSyntaxCodeHighlighter()

  func kinds(_ line: String, _ highlighted: HighlightedLine) -> Set<CodeTokenKind> {
    Set(
      highlighted.spans.filter {
        !String(decoding: Array(line.utf8)[$0.range], as: UTF8.self).allSatisfy(\.isWhitespace)
      }.map(\.kind))
  }

  @Test("a Swift block comment carries over lines, and ends")
  func swiftComment() throws {
    let swift = try #require(highlighter.language(named: "swift"))
    let lines = ["let a = 1 /* start", "still comment let var", "end */ let b = 2"]
    let result = highlighter.highlight(lines: lines, language: swift)
    #expect(kinds(lines[1], result[1]) == [.comment])
    #expect(kinds(lines[2], result[2]).contains(.keyword))
    // Without the state, the middle line is code.
    let alone = highlighter.highlight(lines[1], language: swift, state: .initial)
    #expect(!kinds(lines[1], alone).contains(.comment))
  }

  @Test("a Python triple-quoted string carries over lines")
  func pythonString() throws {
    let python = try #require(highlighter.language(named: "py"))
    let lines = ["s = \"\"\"first", "def not_code(): return 1", "end\"\"\"", "def f(): pass"]
    let result = highlighter.highlight(lines: lines, language: python)
    #expect(kinds(lines[1], result[1]).isSubset(of: [.string, .verbatimString, .specialString, .documentation]))
    #expect(kinds(lines[3], result[3]).contains(.keyword) || kinds(lines[3], result[3]).contains(.controlFlow))
  }

  @Test("highlighting line by line equals highlighting the block: states are values")
  func replayingAState() throws {
    let swift = try #require(highlighter.language(named: "swift"))
    let first = highlighter.highlight("/* open", language: swift, state: .initial)
    let a = highlighter.highlight("x", language: swift, state: first.state)
    let b = highlighter.highlight("x", language: swift, state: first.state)
    #expect(a.spans == b.spans)
    #expect(a.spans.map(\.kind) == [.comment])
  }

  @Test("spans lie in the line, in order, on character boundaries")
  func spansAreWellFormed() throws {
    let swift = try #require(highlighter.language(named: "swift"))
    let line = "let ü = \"日本語 😀\" // ✓ done"
    let spans = highlighter.highlight(line, language: swift, state: .initial).spans
    let bytes = Array(line.utf8)
    var end = 0
    for span in spans {
      #expect(span.range.lowerBound >= end)
      #expect(span.range.upperBound <= bytes.count)
      #expect(bytes.indices.contains(span.range.lowerBound) && bytes[span.range.lowerBound] & 0xC0 != 0x80)
      end = span.range.upperBound
    }
    #expect(spans.contains { String(decoding: bytes[$0.range], as: UTF8.self) == "// ✓ done" })
  }

  @Test("a line past the limit stays plain and passes the state through")
  func longLine() throws {
    let swift = try #require(highlighter.language(named: "swift"))
    let open = highlighter.highlight("/* open", language: swift, state: .initial)
    let long = String(repeating: "let x = [[[(", count: KSyntaxCodeHighlighter.maximumLineBytes / 8)
    let result = highlighter.highlight(long, language: swift, state: open.state)
    #expect(result.spans.isEmpty)
    #expect(highlighter.highlight("x", language: swift, state: result.state).spans.map(\.kind) == [.comment])
  }

  @Test("deeply nested brackets in one line stay bounded")
  func nestedBrackets() throws {
    let json = try #require(highlighter.language(named: "json"))
    let line = String(repeating: "[", count: 8_000) + String(repeating: "]", count: 8_000)
    let clock = ContinuousClock()
    let elapsed = clock.measure { _ = highlighter.highlight(line, language: json, state: .initial) }
    #expect(elapsed < .seconds(2))
  }
}
