import Testing

@testable import ReplyMarkdown

/// The guard scanner on its own: the edits it records, its per-kind reports, and the byte-level
/// helpers it reads tables and autolinks with.
@Suite struct GuardScannerTests {
  /// Runs a scanner over `text` and hands it to `body` while the bytes are alive.
  static func scan<Result>(
    _ text: String, options: ParseOptions = .github, limits: InputLimits = .default,
    _ body: (GuardScanner) -> Result
  ) -> Result {
    var copy = text
    return copy.withUTF8 { buffer in
      var scanner = GuardScanner(bytes: buffer, options: options, limits: limits)
      scanner.run()
      return body(scanner)
    }
  }

  @Test func ordinaryMarkdownGetsNoEdits() {
    let reply =
      "# Title\n\nSome *text*, a [link](https://x.org) and `code`.\n\n- a\n- b\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    Self.scan(reply) { scanner in
      #expect(scanner.edits.isEmpty)
      #expect(scanner.reports.isEmpty)
      #expect(scanner.diagnosticList().isEmpty)
      #expect(scanner.editedText() == reply)
    }
  }

  @Test func deepNestingPastTheLimitIsEscapedAndReportedOnce() {
    let limits = InputLimits(maxNestingDepth: 3)
    Self.scan("> > > > > deep\n", limits: limits) { scanner in
      #expect(!scanner.edits.isEmpty)
      #expect(scanner.edits.allSatisfy { $0.insertion == .backslash })
      let diagnostics = scanner.diagnosticList()
      #expect(diagnostics.count == 1)
      #expect(diagnostics.first?.line == 1)
      // The edited text keeps every byte of the input, in order, with the insertions between.
      let edited = scanner.editedText()
      #expect(edited.utf8.count == "> > > > > deep\n".utf8.count + scanner.edits.count)
      #expect(edited.replacingOccurrences(of: "\\", with: "") == "> > > > > deep\n")
    }
  }

  @Test func tooManyTableColumnsAreGuardedAndReportedOnce() {
    let limits = InputLimits(maxTableColumns: 2)
    let text = "| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n"
    Self.scan(text, limits: limits) { scanner in
      #expect(!scanner.edits.isEmpty)
      #expect(scanner.diagnosticList().count == 1)
      #expect(scanner.editedText() == InputGuard.apply(text, limits: limits).text)
    }
  }

  @Test func editsAreInOffsetOrderInTheEditedText() {
    let limits = InputLimits(maxDelimiterRuns: 2)
    let text = "*a* *b* *c* *d* *e*\n"
    Self.scan(text, limits: limits) { scanner in
      #expect(!scanner.edits.isEmpty)
      let offsets = scanner.edits.map(\.offset)
      #expect(offsets.allSatisfy { $0 >= 0 && $0 <= text.utf8.count })
      #expect(scanner.editedText() == InputGuard.apply(text, limits: limits).text)
    }
  }

  @Test func cellsAreCountedAtUnescapedPipes() {
    Self.scan("| a | b \\| c | d |") { scanner in
      let row = scanner.cells(from: 0, to: scanner.bytes.count)
      #expect(row.cells == 3)
      #expect(row.pipes == 4)
    }
    Self.scan("a | b") { scanner in
      #expect(scanner.cells(from: 0, to: scanner.bytes.count).cells == 2)
    }
  }

  @Test func autolinkSchemesAreFoundBeforeTheColon() {
    var text = "see HTTPS://x and mailto:y and gopher://z"
    func colon(after prefix: String) -> Int {
      let range = text.range(of: prefix)
      return text.utf8.distance(from: text.startIndex, to: range?.upperBound ?? text.startIndex)
    }
    let https = colon(after: "HTTPS")
    let mailto = colon(after: "mailto")
    let gopher = colon(after: "gopher")
    text.withUTF8 { bytes in
      #expect(GuardScanner.hasAutolinkScheme(before: https, lineStart: 0, end: bytes.count, in: bytes))
      #expect(GuardScanner.hasAutolinkScheme(before: mailto, lineStart: 0, end: bytes.count, in: bytes))
      #expect(!GuardScanner.hasAutolinkScheme(before: gopher, lineStart: 0, end: bytes.count, in: bytes))
      #expect(GuardScanner.word("see", endsAt: 3, after: 0, in: bytes))
      #expect(!GuardScanner.word("see", endsAt: 2, after: 0, in: bytes))
    }
  }
}
