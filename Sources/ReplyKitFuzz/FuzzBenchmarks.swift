import Foundation
import ReplyMarkdown

/// The timing tables of `replykit fuzz --pathological` and `--resources` (benchmarks, not tests).
public enum FuzzBenchmarks {
  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
  static func seconds(_ from: UInt64, _ to: UInt64) -> Double { Double(to - from) / 1e9 }

  /// Peak resident memory of this process in MB.
  static func peakMemoryMB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
  }

  /// Times every case of `pathological.json` at full size; `write` gets the Markdown table line by line.
  public static func pathological(cases url: URL, write: (String) -> Void) throws {
    let cases = try PathologicalCase.load(from: url)
    write("| # | case | input bytes | guard s | parse s | HTML s | total s | output bytes | guards | C s (measured) |\n")
    write("|---|---|---:|---:|---:|---:|---:|---:|---|---:|\n")
    var worst = 0.0
    for (number, item) in cases.enumerated() {
      let text = item.generate()
      let t0 = now()
      let guarded = InputGuard.apply(text, options: item.parseOptions)
      let t1 = now()
      let document = MarkdownDocument(text, options: item.parseOptions)
      let t2 = now()
      let html = HTMLRenderer().render(document)
      let t3 = now()
      // MarkdownDocument runs the guard itself: parse time is its time minus the guard's.
      let guardTime = seconds(t0, t1)
      let parseTime = max(0, seconds(t1, t2) - guardTime)
      let total = seconds(t1, t3)
      worst = max(worst, total)
      let kinds = guarded.diagnostics.map(\.kind.rawValue).joined(separator: ", ")
      let c = item.measured.seconds >= 20 ? "> 20" : String(format: "%.3f", item.measured.seconds)
      write(
        "| \(number) | \(item.name.replacingOccurrences(of: "|", with: "\\|")) | \(text.utf8.count) | \(String(format: "%.3f", guardTime)) | \(String(format: "%.3f", parseTime)) | \(String(format: "%.3f", seconds(t2, t3))) | \(String(format: "%.3f", total)) | \(html.utf8.count) | \(kinds.isEmpty ? "-" : kinds) | \(c) |\n"
      )
    }
    write("\nslowest case: \(String(format: "%.3f", worst)) s; peak memory \(Int(peakMemoryMB())) MB\n")
  }

  /// Times a 50 MB input and a 1 MB single line; `write` gets one line per input.
  public static func resources(write: (String) -> Void) {
    let paragraph = "Some *emphasis*, a [link](https://example.com), `code` and a www.example.com autolink.\n\n"
    let fifty = String(repeating: paragraph, count: 50_000_000 / paragraph.utf8.count)
    let line = String(repeating: "word *a* [b](c) ", count: 1_000_000 / 16)
    for (name, text) in [("1 MB single line", line), ("50 MB input", fifty)] {
      let t0 = now()
      let document = MarkdownDocument(text)
      let t1 = now()
      let html = HTMLRenderer().render(document)
      let t2 = now()
      write(
        "\(name): \(text.utf8.count) bytes, parse \(String(format: "%.2f", seconds(t0, t1))) s, HTML \(String(format: "%.2f", seconds(t1, t2))) s, output \(html.utf8.count) bytes, peak memory \(Int(peakMemoryMB())) MB\n"
      )
    }
  }
}
