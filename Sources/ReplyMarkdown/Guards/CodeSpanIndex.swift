/// The code spans of one paragraph as the guard sees them: a run of at most ``longestRun``
/// backticks opens one when a later run of exactly as many backticks in the paragraph closes it
/// (cmark-gfm's rule; inside, backslashes are text).
///
/// The guard uses it only to spare escapes inside code spans, where a backslash would show
/// (`` `x *b* y` `` in a paragraph past its delimiter limit): what it takes for a span, cmark-gfm
/// may not (an HTML tag or autolink that starts before the backticks wins over them), so the
/// spared escapes are capped by the caller.
struct CodeSpanIndex {
  /// The backtick runs in order: where each starts and how long it is.
  private var runs: [(start: Int, length: Int)] = []
  /// Run length → where the runs of that length start, in order: made only for paragraphs with
  /// more than ``directRuns`` runs (a dictionary costs more to build than a few runs to read).
  private var starts: [Int: [Int]]?
  /// Run length → the first entry of ``starts`` not yet passed by a lookup.
  private var passed: [Int: Int] = [:]
  /// The first run a lookup may still need (lookups come in increasing `start`).
  private var first = 0

  /// Up to this many runs, a lookup reads the runs after it directly.
  static let directRuns = 32

  /// The longest backtick run that opens or closes a code span: cmark-gfm 0.29.0.gfm.6 reads a
  /// longer run as text (`MAXBACKTICKS`), closed or not.
  static let longestRun = 80

  /// Indexes the backtick runs on the lines of `segment`.
  ///
  /// - Complexity: O(n) in the lines' bytes.
  init(_ segment: GuardScanner.SegmentLines, in bytes: UnsafeBufferPointer<UInt8>) {
    for lineIndex in 0..<segment.count {
      let line = segment[lineIndex]
      var index = bytes.firstOffset(of: ASCII.backtick, from: line.start, to: line.end)
      while index < line.end {
        var runEnd = index
        while runEnd < line.end && bytes[runEnd] == ASCII.backtick { runEnd += 1 }
        runs.append((index, runEnd - index))
        index = bytes.firstOffset(of: ASCII.backtick, from: runEnd, to: line.end)
      }
    }
    if runs.count > Self.directRuns {
      var starts: [Int: [Int]] = [:]
      for run in runs { starts[run.length, default: []].append(run.start) }
      self.starts = starts
    }
  }

  /// Where the code span that a run of `length` backticks at `start` opens ends (past its closing
  /// run), or `nil` when no run of that length follows or the run is longer than
  /// ``longestRun``. Lookups must come in increasing `start`.
  ///
  /// - Complexity: amortised O(1): each run is passed once (with at most ``directRuns`` runs,
  ///   O(``directRuns``)).
  mutating func end(ofSpanOpenedAt start: Int, length: Int) -> Int? {
    guard length <= Self.longestRun else { return nil }
    guard let starts else {
      while first < runs.count && runs[first].start <= start { first += 1 }
      for position in first..<runs.count where runs[position].length == length {
        return runs[position].start + length
      }
      return nil
    }
    guard let runs = starts[length] else { return nil }
    var next = passed[length] ?? 0
    while next < runs.count && runs[next] <= start { next += 1 }
    passed[length] = next
    return next < runs.count ? runs[next] + length : nil
  }
}
