import Foundation
import ReplyKitFuzz
import ReplyMarkdown

/// The timing tables of `replykit-bench pathological` and `replykit-bench resources`: the
/// hardening benchmarks (every pathological case at full size; large inputs and tiny chunks).
enum FuzzBenchmarks {
  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
  static func seconds(_ from: UInt64, _ to: UInt64) -> Double { Double(to - from) / 1e9 }

  /// Peak resident memory of this process in MB.
  static func peakMemoryMB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
  }

  /// Times every case of `pathological.json` at full size; `write` gets the Markdown table line by line.
  static func pathological(cases url: URL, write: (String) -> Void) throws {
    let cases = try PathologicalCase.load(from: url)
    write(
      "| # | case | input bytes | guard s | parse s | HTML s | total CPU s | total wall s | output bytes | guards | C s (measured) |\n"
    )
    write("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|\n")
    var worst = 0.0
    for (number, item) in cases.enumerated() {
      let text = item.generate()
      // CPU time of this thread (what the work costs, whatever else runs on the machine), and wall.
      let t0 = FuzzOracle.threadCPUTime()
      let guarded = InputGuard.apply(text, options: item.parseOptions)
      let t1 = FuzzOracle.threadCPUTime()
      let wall1 = now()
      let document = MarkdownDocument(text, options: item.parseOptions)
      let t2 = FuzzOracle.threadCPUTime()
      let html = HTMLRenderer().render(document)
      let t3 = FuzzOracle.threadCPUTime()
      let wall3 = now()
      // MarkdownDocument runs the guard itself: parse time is its time minus the guard's.
      let guardTime = t1 - t0
      let parseTime = max(0, t2 - t1 - guardTime)
      let total = t3 - t1
      let wall = seconds(wall1, wall3)
      worst = max(worst, total)
      let kinds = guarded.diagnostics.map(\.kind.rawValue).joined(separator: ", ")
      let c = item.measured.seconds >= 20 ? "> 20" : String(format: "%.3f", item.measured.seconds)
      write(
        "| \(number) | \(item.name.replacingOccurrences(of: "|", with: "\\|")) | \(text.utf8.count) | \(String(format: "%.3f", guardTime)) | \(String(format: "%.3f", parseTime)) | \(String(format: "%.3f", t3 - t2)) | \(String(format: "%.3f", total)) | \(String(format: "%.3f", wall)) | \(html.utf8.count) | \(kinds.isEmpty ? "-" : kinds) | \(c) |\n"
      )
    }
    write("\nslowest case: \(String(format: "%.3f", worst)) s CPU; peak memory \(Int(peakMemoryMB())) MB\n")
  }

  /// Times a 50 MB input, a 1 MB single line and a reply streamed in 100,000 tiny chunks; `write`
  /// gets one line per input.
  static func resources(rounds: Int = 1, write: (String) -> Void) {
    for round in 0..<max(rounds, 1) {
      if rounds > 1 { write("round \(round + 1) of \(rounds)\n") }
      resourcesRound(write: write)
    }
  }

  private static func resourcesRound(write: (String) -> Void) {
    let reply = String(
      repeating: "Some *text* with `code`, a [link](https://example.com) and more words.\n\n", count: 14_000)
    let chunks = 100_000
    let size = reply.utf8.count / chunks
    let bytes = Array(reply.utf8)
    let s0 = now()
    let c0 = FuzzOracle.threadCPUTime()
    var stream = MarkdownStream()
    var consumer = MarkdownStreamHTMLRenderer()
    var offset = 0
    for index in 0..<chunks {
      let end = index == chunks - 1 ? bytes.count : offset + size
      consumer.apply(stream.feed(bytes: bytes[offset..<end]))
      offset = end
    }
    consumer.apply(stream.finish())
    let c1 = FuzzOracle.threadCPUTime()
    let s1 = now()
    write(
      "100,000 chunks: \(bytes.count) bytes in chunks of \(size), \(String(format: "%.2f", c1 - c0)) s CPU (\(String(format: "%.2f", seconds(s0, s1))) s wall), output \(consumer.html.utf8.count) bytes, identical to one-shot: \(consumer.html == HTMLRenderer().render(MarkdownDocument(reply))), peak memory \(Int(peakMemoryMB())) MB\n"
    )
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
