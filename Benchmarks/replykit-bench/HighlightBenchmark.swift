import Foundation
import ReplyHighlight
import ReplyMarkdown

/// `replykit-bench highlight FILE.md`: in-process highlighting figures.
///
/// - Throughput: every fence of `FILE.md` highlighted line by line through
///   `KSyntaxCodeHighlighter` (the library alone, no rendering), and the ANSI render of the whole
///   reply with and without highlighting.
/// - Streaming a long fence: Swift fences of 50, 100 and 200 KB streamed in 20-byte chunks through
///   `MarkdownStream` and the ANSI consumer (width 80, colour), with and without highlighting: total
///   time, growth per doubling, and the lines and bytes the highlighter was given (a count: each
///   finished line once, the open line again per chunk).
enum HighlightBenchmark {
  /// A highlighter that counts the lines and bytes it is given.
  final class Counting: CodeHighlighter {
    let base = KSyntaxCodeHighlighter()
    nonisolated(unsafe) var lines = 0
    nonisolated(unsafe) var bytes = 0
    var theme: CodeTheme? { base.theme }
    func language(named name: String) -> CodeLanguage? { base.language(named: name) }
    func highlight(_ line: String, language: CodeLanguage, state: CodeLineState) -> HighlightedLine {
      lines += 1
      bytes += line.utf8.count
      return base.highlight(line, language: language, state: state)
    }
  }

  static func run(path: String) throws -> String {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let document = MarkdownDocument(text)
    let highlighter = KSyntaxCodeHighlighter()
    var blocks: [(language: CodeLanguage, lines: [String])] = []
    var codeBytes = 0
    for node in document.nodes {
      guard case .codeBlock(let code) = node.kind, let name = code.language,
        let language = highlighter.language(info: name)
      else { continue }
      let lines = code.code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      blocks.append((language, lines))
      codeBytes += code.code.utf8.count
    }
    var spans = 0
    let library = Measure.seconds(runs: 5, warmups: 1) {
      spans = 0
      for block in blocks { spans += highlighter.highlight(lines: block.lines, language: block.language).count }
    }
    let plain = ANSIRenderer(options: ANSIOptions(width: 80, color: true))
    let coloured = ANSIRenderer(options: ANSIOptions(width: 80, color: true, highlighter: highlighter))
    var output = 0
    let renderPlain = Measure.seconds(runs: 5, warmups: 1) { output = plain.render(document).utf8.count }
    let renderColoured = Measure.seconds(runs: 5, warmups: 1) { output = coloured.render(document).utf8.count }
    let seconds = Measure.median(library)
    var result = """
      | in-process, \(path) (\(text.utf8.count) bytes, \(blocks.count) highlighted fences, \(codeBytes) bytes of code), median of 5 | value |
      |---|---|
      | `KSyntaxCodeHighlighter.highlight(lines:language:)` over every fence | \(Measure.ms(seconds)) (\(String(format: "%.1f", Double(codeBytes) / seconds / 1e6)) MB/s, \(spans) lines) |
      | ANSI render, width 80, colour, no highlighting | \(Measure.ms(Measure.median(renderPlain))) |
      | ANSI render, width 80, colour, highlighted (GitHub Dark, 256 colours) | \(Measure.ms(Measure.median(renderColoured))) (output \(output) bytes) |
      | **highlighting / plain** (ANSI render in-process) | **\(String(format: "%.2f", Measure.median(renderColoured) / Measure.median(renderPlain)))x** |

      """
    result += "\n" + streamingFence()
    return result
  }

  /// A Swift fence of about `bytes` bytes of code.
  static func fence(bytes: Int) -> String {
    var code = ""
    var index = 0
    while code.utf8.count < bytes {
      switch index % 4 {
      case 0: code += "/// Computes the value of row \(index), \"quoted\" and escaped \\n.\n"
      case 1: code += "func compute\(index)(_ input: [Int], scale: Double = 1.5) -> Int {\n"
      case 2: code += "  let total = input.reduce(0, +) * \(index) /* inline comment */ // trailing\n"
      default: code += "  return Int(Double(total) * scale) }\n"
      }
      index += 1
    }
    return "```swift\n" + code + "```\n"
  }

  static func streamingFence() -> String {
    var rows = """
      | Swift fence streamed in 20-byte chunks (ANSI consumer, width 80, colour; an update applied after every chunk) | chunks | lines | highlighted | total, best of 5 | growth ×2 | lines given to the highlighter | bytes given |
      |---|---|---|---|---|---|---|---|

      """
    var previous: [Bool: Double] = [:]
    // REPLYKIT_BENCH_FENCE_SIZES=100000,200000 measures other sizes (one run each under a profiler).
    let sizes =
      ProcessInfo.processInfo.environment["REPLYKIT_BENCH_FENCE_SIZES"].map {
        $0.split(separator: ",").compactMap { Int($0) }
      }
      ?? [50_000, 100_000, 200_000]
    let runs = ProcessInfo.processInfo.environment["REPLYKIT_BENCH_FENCE_SIZES"] == nil ? 5 : 1
    for size in sizes {
      let markdown = fence(bytes: size)
      let bytes = Array(markdown.utf8)
      let lineCount = markdown.split(separator: "\n").count - 2
      for highlighted in [false, true] {
        let counting = Counting()
        let renderer = ANSIRenderer(
          options: ANSIOptions(
            width: 80, color: true, highlighter: highlighted ? counting : PlainCodeHighlighter()))
        var chunks = 0
        let samples = Measure.seconds(runs: runs, warmups: runs == 1 ? 0 : 1) {
          counting.lines = 0
          counting.bytes = 0
          var stream = MarkdownStream()
          var consumer = MarkdownStreamANSIRenderer(renderer: renderer)
          var start = 0
          chunks = 0
          while start < bytes.count {
            let end = min(start + 20, bytes.count)
            _ = consumer.apply(stream.feed(bytes: bytes[start..<end]))
            start = end
            chunks += 1
          }
          _ = consumer.apply(stream.finish())
        }
        // The best of five: this shared machine's slow spells only ever add time.
        let total = samples[0]
        let growth = previous[highlighted].map { String(format: "%.2fx", total / $0) } ?? "—"
        previous[highlighted] = total
        rows +=
          "| \(size / 1000) KB | \(chunks) | \(lineCount) | \(highlighted ? "yes" : "no") | \(Measure.ms(total)) | \(growth) | "
          + (highlighted ? "\(counting.lines) | \(counting.bytes) |\n" : "— | — |\n")
      }
    }
    return rows
  }
}
