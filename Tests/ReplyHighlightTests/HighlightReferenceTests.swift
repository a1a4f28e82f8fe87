import Foundation
import ReplyHighlight
import ReplyMarkdown
import Testing

/// Spans compared with what `kate-syntax-highlighter` (the same engine, its own CLI) writes as
/// HTML: each coloured run's text and colour.
@Suite("Highlighting matches kate-syntax-highlighter")
struct HighlightReferenceTests {
  static let samples: [(language: String, code: String)] = [
    (
      "Swift",
      """
      import Foundation
      /* a comment
         over two lines */
      let answer: Int = 42 // the answer
      func greet(_ name: String) -> String { "Hello, \\(name)!" }
      """
    ),
    (
      "Python",
      """
      def area(r: float) -> float:
          \"\"\"Docstring
          over lines.\"\"\"
          return 3.14159 * r ** 2  # pi r squared
      print(area(2), 'done', 0x1F)
      """
    ),
    (
      "JSON",
      """
      {
        "name": "ReplyKit",
        "version": 1.5,
        "tags": ["markdown", true, null]
      }
      """
    ),
    (
      "Diff",
      """
      --- a/file.swift
      +++ b/file.swift
      @@ -1,3 +1,3 @@
       let a = 1
      -let b = 2
      +let b = 3
      """
    ),
  ]

  static var referenceAvailable: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/kate-syntax-highlighter")
  }

  @Test(
    "coloured runs match the reference CLI", .enabled(if: referenceAvailable),
    arguments: samples.map(\.language))
  func matchesReference(language: String) throws {
    let code = try #require(Self.samples.first { $0.language == language }).code
    let highlighter = try #require(KSyntaxCodeHighlighter(themeNamed: "GitHub Dark"))
    let resolved = try #require(highlighter.language(named: language))
    let lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var ours: [Run] = []
    for (line, highlighted) in zip(lines, highlighter.highlight(lines: lines, language: resolved)) {
      let bytes = Array(line.utf8)
      for span in highlighted.spans {
        guard let color = span.style.foreground else { continue }
        let text = String(decoding: bytes[span.range], as: UTF8.self)
        Run.append(text, color.hex, to: &ours)
      }
    }
    let reference = try Self.reference(code, language: language)
    #expect(ours.count > 3)
    #expect(ours == reference)
  }

  struct Run: Equatable, CustomStringConvertible {
    var text: String
    var color: String
    var description: String { "\(color) \(text.debugDescription)" }

    /// Appends a run, joining it to the last when the colour is the same (the CLI writes a span
    /// per format, and two formats may share a colour).
    static func append(_ text: String, _ color: String, to runs: inout [Run]) {
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      guard !trimmed.isEmpty else { return }
      runs.append(Run(text: trimmed, color: color))
    }
  }

  /// The coloured runs of the CLI's HTML for `code`.
  static func reference(_ code: String, language: String) throws -> [Run] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/kate-syntax-highlighter")
    process.arguments = ["--stdin", "-s", language, "-t", "GitHub Dark"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data((code + "\n").utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let html = String(decoding: data, as: UTF8.self)
    var runs: [Run] = []
    var rest = Substring(html)
    let open = "<span style=\"color:"
    while let start = rest.range(of: open) {
      rest = rest[start.upperBound...]
      let color = String(rest.prefix(7))
      guard let close = rest.range(of: "\">"), let end = rest.range(of: "</span>") else { break }
      let text = String(rest[close.upperBound..<end.lowerBound])
        .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
        .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
        .replacingOccurrences(of: "&amp;", with: "&")
      for piece in text.split(separator: "\n") { Run.append(String(piece), color, to: &runs) }
      rest = rest[end.upperBound...]
    }
    return runs
  }
}
