import ReplyKitFuzz
import Testing

@testable import ReplyMarkdown

/// The byte-level fast paths of terminal text (ASCII runs in ``LineBreaker``, eight-byte scans in
/// ``ByteWords``, the UTF-8 scan of ``InvisibleFormat``, the copy text of a code block read in
/// place) checked against the slow paths they stand for, on seeded random text that mixes ASCII
/// with marks, wide characters and emoji.
@Suite struct TextFastPathTests {
  /// Pieces random text is made of: ASCII words and punctuation, spaces and newlines, and the
  /// clusters that need the grapheme scanner (a mark or selector joining ASCII, CJK with kinsoku
  /// punctuation, emoji sequences, flags, invisible format characters).
  static let pieces = [
    "a", "bc", "word", "x", " ", "  ", "\n", ",", ".", "!", ")", "e\u{301}", " \u{FE0F}", "x\u{FE0F}", "日", "本語",
    "、", "「", "」", "ｶ", "ぁ", "👍", "👍🏽", "👩‍💻", "🇯🇵", "\u{200B}", "\u{00AD}", "é", "averyveryverylongword",
  ]

  static func randomText(_ generator: inout SplitMix64, pieces count: Int) -> String {
    var text = ""
    for _ in 0..<count { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
    return text
  }

  @Test func wrapMatchesTheClusterByClusterWrap() {
    var generator = SplitMix64(seed: 15)
    for round in 0..<3000 {
      var text = Self.randomText(&generator, pieces: round % 40)
      let width = 2 + round % 14
      let shown = text.debugDescription
      text.withUTF8 { bytes in
        let fast = LineBreaker.wrap(bytes, width: width)
        let slow = ReferenceWrap.wrap(bytes, width: width)
        #expect(fast == slow, "width \(width): \(shown)")
      }
    }
  }

  @Test func wrapAppendsAfterTheLinesAlreadyInTheBuffer() {
    var text = "one two three four"
    text.withUTF8 { bytes in
      var lines = [LineBreaker.Line(range: 0..<0, width: 0)]
      LineBreaker.wrap(bytes, width: 9, appendingTo: &lines)
      #expect(lines == [LineBreaker.Line(range: 0..<0, width: 0)] + LineBreaker.wrap(bytes, width: 9))
    }
  }

  @Test func linkTextShortcutsMatchTheUnicodeComparison() {
    // Pieces of link texts and URLs, with the characters that lower-case or are canonically
    // equivalent to ASCII (U+0130, KELVIN SIGN, GREEK QUESTION MARK, GREEK VARIA).
    let pieces = [
      "https://", "HTTP://", "//", "www.", "WWW.", "example", "Example", ".com", "/", "#top", "mailto:", "k", "K",
      "\u{212A}", "i", "\u{130}", ";", "\u{37E}", "`", "\u{1FEF}", "é", "e\u{301}", "ß", "SS", "日本", "👍", " ",
    ]
    // The four characters, each equal to an ASCII URL only through Unicode.
    for (text, destination) in [
      ("https://\u{212A}", "https://k"), ("https://\u{130}", "https://i\u{307}"), ("a\u{37E}", "https://a;"),
      ("\u{1FEF}x", "//`x"), ("https://caf\u{E9}", "https://cafe"),
      // Relative destinations that are not ASCII: answered from their first byte.
      ("x", "u[[\u{FFFD}[["), ("caf\u{E9}", "caf\u{E9}"), ("x", "\u{E9}t\u{E9}"), ("x", "W\u{301}ww.a"),
      ("x", "#\u{301}"), ("x", "/\u{301}/a"), ("x", "www.\u{301}"), ("x", "\u{130}"), ("x", "\u{212A}:"),
    ] {
      #expect(
        LinkText.urlAddsNothing(text: text, destination: destination)
          == LinkText.urlAddsNothingByUnicode(text: text, destination: destination))
    }
    var generator = SplitMix64(seed: 21)
    func random(_ count: Int) -> String {
      var text = ""
      for _ in 0..<count { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
      return text
    }
    for round in 0..<20000 {
      let text = random(1 + round % 5)
      // Mostly the text itself, changed a little, so that equal pairs come up often.
      let destination: String
      switch generator.next() % 4 {
      case 0: destination = "https://" + text
      case 1: destination = text.lowercased()
      case 2: destination = "https://" + String(text.unicodeScalars.filter(\.isASCII).map(Character.init))
      default: destination = random(1 + round % 4)
      }
      #expect(
        LinkText.urlAddsNothing(text: text, destination: destination)
          == LinkText.urlAddsNothingByUnicode(text: text, destination: destination),
        "\(text.debugDescription) → \(destination.debugDescription)")
    }
  }

  @Test func wordScansMatchByteLoops() {
    var generator = SplitMix64(seed: 8)
    // Bytes near each boundary the word tests draw.
    let alphabet: [UInt8] = [
      0x00, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x41, 0x7E, 0x7F, 0x80, 0xAD, 0xC1, 0xC2, 0xC3, 0xE1, 0xE2, 0xE3, 0xFF,
    ]
    for round in 0..<5000 {
      let count = round % 40
      var bytes: [UInt8] = []
      for _ in 0..<count {
        // Mostly plain letters, so that words without a match come up too.
        let pick = generator.next() % 8 == 0 ? alphabet[Int(generator.next() % UInt64(alphabet.count))] : 0x61
        bytes.append(pick)
      }
      bytes.withUnsafeBufferPointer { buffer in
        #expect(
          TerminalSafeText.anyNeedsCheck(buffer) == buffer.contains(where: TerminalSafeText.needsCheck), "\(bytes)")
        #expect(ByteWords.isASCII(buffer) == !buffer.contains(where: { $0 >= 0x80 }), "\(bytes)")
      }
    }
  }

  @Test func copyTextCountMatchesTheCopyText() {
    let codes = [
      "", "\n", "\n\n", "a", "a\n", "a\n\n", "a\r\n", "\r\n", "a\r", "\r", "a\r\n\n", "日本\n", "e\u{301}\n",
      "\n\u{301}", "x\n\r\n",
    ]
    for code in codes {
      let info = MarkdownNode.CodeBlockInfo(info: "", code: code, isFenced: true)
      var bytes = code
      let count = bytes.withUTF8 { PlainTextRenderer.copyTextCount(utf8: $0) }
      #expect(count == PlainTextRenderer.copyText(of: info).utf8.count, "\(code.debugDescription)")
    }
  }

  @Test func invisibleFormatScanMatchesTheScalarTest() {
    var generator = SplitMix64(seed: 200)
    // The invisible characters and their neighbours, which share lead bytes with them.
    let near: [Unicode.Scalar] = [
      "\u{00AC}", "\u{00AD}", "\u{00AE}", "\u{061B}", "\u{061C}", "\u{061D}", "\u{200A}", "\u{200B}", "\u{200F}",
      "\u{2010}", "\u{205F}", "\u{2060}", "\u{2061}", "\u{FEFE}", "\u{FEFF}", "\u{FFFD}", "a", "日",
    ]
    for round in 0..<3000 {
      var text = ""
      for _ in 0..<(round % 12) { text.unicodeScalars.append(near[Int(generator.next() % UInt64(near.count))]) }
      let expected = text.unicodeScalars.contains(where: InvisibleFormat.isInvisible)
      #expect(InvisibleFormat.contains(text) == expected, "\(text.unicodeScalars.map { $0.value })")
    }
  }
}

/// ``LineBreaker/wrap(_:width:)`` as it was before its ASCII fast path: every cluster from the
/// grapheme scanner, placed greedily. The oracle for the fast path.
private enum ReferenceWrap {
  static func wrap(_ bytes: UnsafeBufferPointer<UInt8>, width: Int) -> [LineBreaker.Line] {
    let width = max(width, 2)
    var lines: [LineBreaker.Line] = []
    var lineStart = -1
    var lineEnd = 0
    var lineWidth = 0
    func finishLine() {
      guard lineStart >= 0 else { return }
      lines.append(LineBreaker.Line(range: lineStart..<lineEnd, width: lineWidth))
      lineStart = -1
      lineWidth = 0
    }
    func place(_ start: Int, _ end: Int, _ wordWidth: Int) {
      if lineStart >= 0 {
        let gap = (lineEnd..<start).filter { bytes[$0] == 0x20 }.count
        if lineWidth + gap + wordWidth <= width {
          lineEnd = end
          lineWidth += gap + wordWidth
          return
        }
        finishLine()
      }
      if wordWidth <= width {
        lineStart = start
        lineEnd = end
        lineWidth = wordWidth
        return
      }
      var scanner = GraphemeScanner(bytes, from: start, to: end)
      lineStart = start
      lineEnd = start
      lineWidth = 0
      while let cluster = scanner.next() {
        if lineWidth + cluster.width > width && lineEnd > lineStart {
          finishLine()
          lineStart = cluster.start
        }
        lineEnd = cluster.end
        lineWidth += cluster.width
      }
    }
    var scanner = GraphemeScanner(bytes)
    var wordStart = -1
    var wordEnd = 0
    var wordWidth = 0
    var breakAfterWord = false
    while let cluster = scanner.next() {
      let byte = bytes[cluster.start]
      if (byte == 0x20 && cluster.end == cluster.start + 1) || byte == 0x0A {
        if wordStart >= 0 {
          place(wordStart, wordEnd, wordWidth)
          wordStart = -1
        }
        if byte == 0x0A {
          if lineStart < 0 {
            lines.append(LineBreaker.Line(range: cluster.end..<cluster.end, width: 0))
          } else {
            finishLine()
          }
        }
        continue
      }
      let wide = cluster.width == 2
      if wordStart >= 0 && (wide || breakAfterWord) && !LineBreaker.noBreakBefore(cluster.first) {
        place(wordStart, wordEnd, wordWidth)
        wordStart = -1
      }
      if wordStart < 0 {
        wordStart = cluster.start
        wordWidth = 0
      }
      wordEnd = cluster.end
      wordWidth += cluster.width
      breakAfterWord = wide && !LineBreaker.noBreakAfter(cluster.first)
    }
    if wordStart >= 0 { place(wordStart, wordEnd, wordWidth) }
    finishLine()
    return lines
  }
}
