import ReplyHighlight
import ReplyMarkdown
import Testing

@Suite("Concurrency and speed")
struct ConcurrencyTests {
  static let code = """
    import Foundation
    /// Doc comment.
    struct Point: Hashable { var x: Double; var y: Double }
    func distance(_ a: Point, _ b: Point) -> Double {
      let dx = a.x - b.x, dy = a.y - b.y  // deltas
      return (dx * dx + dy * dy).squareRoot()
    }
    let s = "multi \\(1 + 2) string"
    """
  static var lines: [String] { code.split(separator: "\n").map(String.init) }

  @Test("concurrent calls from many tasks give the serial results")
  func concurrent() async throws {
    let highlighter = KSyntaxCodeHighlighter()
    let swift = try #require(highlighter.language(named: "swift"))
    let expected = highlighter.highlight(lines: Self.lines, language: swift).map(\.spans)
    let results = await withTaskGroup(of: [[CodeSpan]].self) { group in
      for index in 0..<16 {
        group.addTask {
          // Half the tasks also look languages up and read themes while others highlight.
          if index.isMultiple(of: 2) {
            _ = highlighter.language(named: "python")
            _ = KSyntaxCodeHighlighter.theme(named: "GitHub Light")
          }
          var last: [[CodeSpan]] = []
          for _ in 0..<20 { last = highlighter.highlight(lines: Self.lines, language: swift).map(\.spans) }
          return last
        }
      }
      var all: [[[CodeSpan]]] = []
      for await result in group { all.append(result) }
      return all
    }
    #expect(results.count == 16)
    for result in results { #expect(result == expected) }
  }

  @Test("speed: lines per second")
  func speed() throws {
    let highlighter = KSyntaxCodeHighlighter()
    let swift = try #require(highlighter.language(named: "swift"))
    let lines = Array(repeating: Self.lines, count: 500).flatMap { $0 }
    let clock = ContinuousClock()
    var spans = 0
    let elapsed = clock.measure {
      for line in highlighter.highlight(lines: lines, language: swift) { spans += line.spans.count }
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let bytes = lines.reduce(0) { $0 + $1.utf8.count + 1 }
    print(
      "Highlight speed (Swift, debug build): \(lines.count) lines, \(bytes) bytes in \(Int(seconds * 1000)) ms: "
        + "\(Int(Double(lines.count) / seconds)) lines/s, \(Int(Double(bytes) / seconds / 1024)) KiB/s, \(spans) spans")
    #expect(spans > lines.count)
  }
}
