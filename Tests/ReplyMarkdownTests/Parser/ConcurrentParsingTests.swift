import Testing

@testable import ReplyMarkdown

/// cmark-gfm's inline parser edits process-global state; parses from many tasks at once must give
/// exactly the trees that serial parsing gives.
@Suite struct ConcurrentParsingTests {
  static let inputs: [String] = (0..<16).map { seed in
    (0..<200).map { line in
      "Line \(line) of \(seed): ~~struck \(line)~~ and ~single~ with **bold ~~inner~~** | a | b |\n"
        + (line % 10 == 0 ? "\n| h | i |\n|---|---|\n| ~~x~~ | *y* |\n\n" : "")
    }.joined()
  }

  @Test func eightConcurrentTasksMatchSerialParsing() async {
    let serial = Self.inputs.map { MarkdownDocument($0) }
    let strikethroughs = serial[0].nodes.filter { if case .strikethrough = $0.kind { true } else { false } }.count
    #expect(strikethroughs >= 200, "the input must be strikethrough-heavy")
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for task in 0..<8 {
        group.addTask {
          var mismatches = 0
          for round in 0..<6 {
            let index = (task * 3 + round) % Self.inputs.count
            if MarkdownDocument(Self.inputs[index]) != serial[index] { mismatches += 1 }
          }
          return mismatches
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }

  @Test func concurrentThreadsMatchSerialParsing() {
    let serial = Self.inputs.map { MarkdownDocument($0) }
    let results = (0..<8).map { _ in SmallStackResult() }
    DispatchQueueRunner.concurrentPerform(iterations: 8) { worker in
      var ok = true
      for round in 0..<4 {
        let index = (worker + round * 5) % Self.inputs.count
        ok = ok && MarkdownDocument(Self.inputs[index]) == serial[index]
      }
      results[worker].set(ok)
    }
    #expect(results.allSatisfy { $0.get() })
  }
}
