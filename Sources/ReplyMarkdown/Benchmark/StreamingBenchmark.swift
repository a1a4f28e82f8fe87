#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Measures ``MarkdownStream`` with the HTML consumer on synthetic replies of 50, 100 and 200 KB
/// of five kinds (prose, one long code fence, a 2,000-item list, a 1,000-row table, CJK text),
/// streamed in 4- and 20-byte chunks with an update after every chunk.
///
/// Reports time per update (p50, p99), the total against one one-shot render, the growth from
/// 100 to 200 KB, the naive way (a one-shot render of everything received after each chunk,
/// timed on a subsample of updates and scaled up), and the peak resident memory.
public enum StreamingBenchmark {
  /// Runs the benchmark and returns a markdown table.
  ///
  /// With `REPLYKIT_BENCH_STREAM_PROFILE` set to a kind (`prose`, `code fence`, `list`, `table`,
  /// `CJK`), runs only that kind in 20-byte chunks at `REPLYKIT_BENCH_STREAM_KB` (200 by default),
  /// without the naive way (for profilers).
  public static func run() -> String {
    if let value = getenv("REPLYKIT_BENCH_STREAM_PROFILE"), let kind = Kind(rawValue: String(cString: value)) {
      let size = getenv("REPLYKIT_BENCH_STREAM_KB").flatMap { Int(String(cString: $0)) } ?? 200
      let result = measure(kind.text(bytes: size * 1000), chunk: 20, naive: false)
      return "\(kind.rawValue) \(size) KB, 20 B: p50 \(micro(result.p50)), p99 \(micro(result.p99)), "
        + "total \(milli(result.total))\n"
    }
    var rows = [
      "| reply | chunk | updates | p50 / update | p99 / update | total | × one-shot | 100→200 KB | naive total (est.) | speed-up |",
      "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for kind in Kind.allCases {
      for chunk in [4, 20] {
        var totals: [Int: Double] = [:]
        for size in [50_000, 100_000, 200_000] {
          let text = kind.text(bytes: size)
          let result = measure(text, chunk: chunk, naive: size != 100_000)
          totals[size] = result.total
          guard size != 100_000 else { continue }
          let growth = size == 200_000 ? format2(result.total / (totals[100_000] ?? result.total)) + "x" : "—"
          rows.append(
            "| \(kind.rawValue) \(size / 1000) KB | \(chunk) B | \(result.updates) | \(micro(result.p50)) | \(micro(result.p99)) | "
              + "\(milli(result.total)) | \(format2(result.total / result.oneShot)) | \(growth) | \(milli(result.naive)) | "
              + "\(Int(result.naive / result.total))x |")
        }
      }
    }
    rows.append("")
    rows.append("Peak resident memory of the whole run: \(peakMemoryMB()) MB.")
    return rows.joined(separator: "\n") + "\n"
  }

  enum Kind: String, CaseIterable {
    case prose, fence = "code fence", list = "list", table = "table", cjk = "CJK"

    func text(bytes: Int) -> String {
      var out = ""
      var index = 0
      switch self {
      case .fence: out = "```swift\n"
      case .table: out = "| # | name | value | note |\n|---|---|---|---|\n"
      default: break
      }
      // Items and rows are sized so 200 KB holds about 2,000 items or 1,000 rows.
      while out.utf8.count < bytes - 8 {
        index += 1
        switch self {
        case .prose:
          out +=
            "Paragraph \(index) has **bold**, *emphasis*, `code` and a [link](https://example.com/\(index)) in it. "
          out += "It goes on for a while so that the line wraps like a real reply does.\n\n"
        case .fence: out += "    let value\(index) = compute(\(index)) // a line of code in a long fence\n"
        case .list:
          out += "- item \(index) with **bold** text and `code` and some words after it, about a hundred bytes\n"
        case .table:
          out +=
            "| \(index) | name \(index) | \(index * 7) | a note about row \(index) with **bold** text, some words, more words and more |\n"
        case .cjk: out += "第\(index)段：这是一个用于测试的中文段落，包含一些**粗体**文字和`代码`，以及更多的汉字内容。\n\n"
        }
      }
      if self == .fence { out += "```\n" }
      return out
    }
  }

  struct Result {
    var updates = 0
    var p50 = 0.0
    var p99 = 0.0
    var total = 0.0
    var oneShot = 0.0
    var naive = 0.0
  }

  static func measure(_ text: String, chunk: Int, naive: Bool) -> Result {
    let bytes = Array(text.utf8)
    var result = Result()
    var times: [Double] = []
    times.reserveCapacity(bytes.count / chunk + 1)
    var stream = MarkdownStream()
    var html = MarkdownStreamHTMLRenderer()
    var offset = 0
    let start = now()
    while offset < bytes.count {
      let end = min(bytes.count, offset + chunk)
      let before = now()
      html.apply(stream.feed(bytes: bytes[offset..<end]))
      times.append(now() - before)
      offset = end
    }
    html.apply(stream.finish())
    result.total = now() - start
    result.updates = times.count
    times.sort()
    result.p50 = times[times.count / 2]
    result.p99 = times[min(times.count - 1, times.count * 99 / 100)]
    let oneShotStart = now()
    let oneShot = HTMLRenderer().render(MarkdownDocument(text))
    result.oneShot = now() - oneShotStart
    precondition(oneShot == html.html, "streamed HTML differs from one-shot")
    if naive {
      // Re-render everything received after each chunk: timed on 200 evenly spread updates.
      let samples = 200
      var sampled = 0.0
      for sample in 0..<samples {
        let end = min(bytes.count, (sample + 1) * bytes.count / samples)
        let t = now()
        _ = HTMLRenderer().render(MarkdownDocument(bytes: bytes[..<end]))
        sampled += now() - t
      }
      result.naive = sampled / Double(samples) * Double(result.updates)
    }
    return result
  }

  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }

  static func peakMemoryMB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) / 1024
  }

  static func micro(_ seconds: Double) -> String { "\(format2(seconds * 1e6)) µs" }
  static func milli(_ seconds: Double) -> String { "\(format2(seconds * 1e3)) ms" }
  static func format2(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    return "\(scaled)"
  }
}
