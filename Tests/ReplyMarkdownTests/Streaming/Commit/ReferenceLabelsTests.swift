import Testing

@testable import ReplyMarkdown

/// The byte scan that picks which definitions a parse needs.
@Suite struct ReferenceLabelsTests {
  @Test(arguments: [
    ("See [docs] and [Other  Ref][ref].", ["docs", "other ref", "ref"]),
    ("A citation [1] and a note [^n].", ["1", "^n"]),
    ("Escaped \\[no] and [a\\]b].", ["a\\]b"]),
    ("[outer [inner] text]", ["inner"]),
    ("[ÄBC]", ["äbc"]),
    ("No labels here.", []),
    // Brackets far apart (the scan skips sixteen bytes at a time), and a label past 1,000 bytes
    // (cmark-gfm links one of 1,000).
    (
      String(repeating: "x", count: 40) + "[far away Label]" + String(repeating: "\\y", count: 30) + "[b]",
      ["far away label", "b"]
    ),
    (
      "[" + String(repeating: "z", count: 1001) + "] [" + String(repeating: "z", count: 1000) + "]",
      [String(repeating: "z", count: 1000)]
    ),
    // A footnote label has no such limit.
    ("[^" + String(repeating: "z", count: 1000) + "]", ["^" + String(repeating: "z", count: 1000)]),
  ])
  func usedLabels(text: String, labels: [String]) {
    #expect(ReferenceLabels.used(in: ArraySlice(text.utf8)) == Set(labels))
  }

  @Test(arguments: [
    ("[docs]: https://example.com\n[Ref]: /r \"t\"\n", ["docs", "ref"]),
    ("> [quoted]: /q\n", ["quoted"]),
    ("- [item]: /i\n", ["item"]),
    ("[^note]: text\n", ["^note"]),
    ("text [not]: a definition\n", []),
    ("[label] no colon\n", []),
  ])
  func definedLabels(text: String, labels: [String]) {
    #expect(ReferenceLabels.defined(in: ArraySlice(text.utf8)) == labels)
  }

  @Test func usedLabelsOfASliceInTheMiddle() {
    let bytes = Array("[skipped] then [kept] and \\[not]".utf8)
    #expect(ReferenceLabels.used(in: bytes[9...]) == ["kept"])
  }

  /// cmark-gfm looks a footnote reference whose brackets stand on different lines up under a
  /// label made from their columns: the scan reports every length the lines' markers leave open.
  @Test(arguments: [
    // The `]` three bytes into its line: one byte after the caret.
    ("[^Ab\n\u{FFFD}] and [^x y\nz]", ["^ab \u{FFFD}", "^a", "^x y z"]),
    // In a quote the content starts after `> `, or (lazily) at the line's start; as a link label
    // it is read without the marker.
    ("> [^abcd\n> xyz]", ["^abcd > xyz", "^abcd xyz", "^a", "^ab", "^abc"]),
    // Four bytes, past the word and its trailing blanks: the word.
    ("[^ab   \nxyzwvu]", ["^ab xyzwvu", "^ab"]),
    // Too close to the line's start: an empty label, which matches nothing.
    ("[^abc\n]", ["^abc"]),
    // Inner brackets made no link: the footnote reference still closes (fuzz seed 1219). The
    // inner `]` may close it too, were its `[` in a code span (fuzz seed 1234).
    ("[^1[]\n\u{FFFD}]", ["^1[", "^1[] \u{FFFD}", "^1"]),
    // With the caret escaped after a `!`, `![` opens an image, whose column is the `!`'s: the
    // label takes one byte more, `1` (fuzz seed 1403).
    ("![\\^1[]\n\u{FFFD}]", ["\\^1[", "\\^1[] \u{FFFD}", "^1"]),
    ("[^1`[`\n\u{FFFD}]", ["` \u{FFFD}", "^1`[` \u{FFFD}", "^1"]),
    // A later line's leading blanks are not in the paragraph cmark-gfm reads: two bytes after the
    // caret are the line break and `1` (fuzz seed 1324).
    ("[^\n 1\n\u{FFFD}>]", ["^ 1 \u{FFFD}>", "^1"]),
    // Nor are its quote markers (`>> [^`, then a lazy `>   1 2`).
    (">> [^\n>   1 2\n> x1\u{E9}  ]", ["^ > 1 2 > x1\u{E9}", "^ 1 2 x1\u{E9}", "^>", "^1"]),
  ])
  func aFootnoteLabelOverLinesReportsWhatCmarkMayLookUp(text: String, labels: [String]) {
    var reported: Set<String> = []
    ReferenceLabels.forEachUsed(in: ArraySlice(text.utf8)) { reported.insert($0) }
    #expect(reported == Set(labels))
    // The set a held block waits on has one key for them all (a review: every length as a
    // string of its own made a set of m·w bytes, 240 MB for a 40 KB reply).
    let waiting = ReferenceLabels.used(in: ArraySlice(text.utf8))
    #expect(waiting.contains(ReferenceLabels.anyFootnote) == (text != "[^abc\n]"))
    #expect(waiting.subtracting([ReferenceLabels.anyFootnote]).isSubset(of: reported))
  }

  /// The labels a scan reports total at most a few times the text (fuzz seed 1235: `[^1`, then
  /// thousands of `[x]` reported the growing footnote label at every `]`).
  @Test func reportedLabelsStayLinear() {
    let text = "[^1]:\n[^1\n" + String(repeating: "[x]\n", count: 2000) + "]\n"
    var reported = 0
    ReferenceLabels.forEachUsed(in: ArraySlice(text.utf8)) { reported += $0.utf8.count }
    #expect(reported <= 4 * text.utf8.count, "\(reported) bytes of labels for \(text.utf8.count)")
  }

  /// The outer `[^` is looked at again on later lines (fuzz seed 1248), once per line.
  @Test func anOuterFootnoteOpenerOverManyLinesStaysLinear() {
    let text = "[^1" + String(repeating: "a", count: 5000) + "[]`[`\n" + String(repeating: "x]]\n", count: 2000)
    var reported = 0
    ReferenceLabels.forEachUsed(in: ArraySlice(text.utf8)) { reported += $0.utf8.count }
    #expect(reported <= 4 * text.utf8.count, "\(reported) bytes of labels for \(text.utf8.count)")
    // Where the columns allow it, the label of the first word is reported.
    var labels: Set<String> = []
    ReferenceLabels.forEachUsed(in: ArraySlice("[^1[]`[`\n\u{FFFD}]".utf8)) { labels.insert($0) }
    #expect(labels.contains("^1"))
  }

  @Test func labelsCompareLikeCmark() {
    #expect(ReferenceLabels.normalized(ArraySlice("  Foo \n\t BAR ".utf8)) == "foo bar")
  }

  /// cmark-gfm case-folds labels, so these pairs match each other there; lowercasing told them
  /// apart, and a definition before its use was left out of the preamble.
  @Test(arguments: [
    ("ẞ", "SS"), ("ß", "ss"), ("ﬀ", "FF"), ("ς", "Σ"), ("İ", "i\u{307}"), ("ΐ", "\u{3B9}\u{308}\u{301}"), ("µ", "μ"),
    ("ſ", "s"),
  ])
  func labelsCaseFoldLikeCmark(first: String, second: String) {
    let key = ReferenceLabels.normalized(ArraySlice(first.utf8))
    #expect(key == ReferenceLabels.normalized(ArraySlice(second.utf8)))
    let text = "[\(second)]: /u\n\n[\(first)]\n\n[^\(first)]: n\n\n[^\(second)]\n"
    #expect(HTMLRenderer().render(MarkdownDocument(text)).contains("<a href=\"/u\">"), "cmark-gfm matches \(text)")
    for size in [1, 3, 64] {
      #expect(
        StreamingHarness.streamedHTML(text, chunk: size) == HTMLRenderer().render(MarkdownDocument(text)),
        "chunks of \(size): \(text)")
    }
  }
}

/// The definitions a stream keeps, and the preamble a parse of part of the reply starts with.
@Suite struct DefinitionStoreTests {
  @Test func thePreambleHoldsOnlyTheDefinitionsTheRegionUses() {
    var store = DefinitionStore()
    for index in 0..<500 { store.add(ArraySlice("[y\(index)]: /u\(index)\n".utf8), at: 0) }
    let preamble = store.preamble(for: ArraySlice("Uses [y7] and [x].".utf8))
    #expect(String(decoding: preamble.bytes, as: UTF8.self) == "[y7]: /u7\n\n")
    #expect(preamble.lines == 2)
    #expect(store.preamble(for: ArraySlice("No labels.".utf8)).bytes.isEmpty)
  }

  /// Told which link labels a piece really defines, the store keeps it for those only, and not
  /// at all when an earlier piece defines them already.
  @Test func onlyRealAndFirstDefinitionsAreKept() {
    var store = DefinitionStore()
    #expect(store.add(ArraySlice("[x]: u|-|\n|-|-|\n|a|\n".utf8), at: 0, definingLinkLabels: []).isEmpty)
    #expect(store.add(ArraySlice("[x]: /u\n".utf8), at: 20, definingLinkLabels: ["x"]) == ["x"])
    #expect(store.add(ArraySlice("[x]: /again\n".utf8), at: 30, definingLinkLabels: ["x"]).isEmpty)
    #expect(store.add(ArraySlice("[x]: /v\n[y]: /y\n".utf8), at: 40, definingLinkLabels: ["x", "y"]) == ["x", "y"])
    // Closed after the others, but before them in the reply: cmark-gfm takes it first.
    #expect(store.add(ArraySlice("[x]: /early\n".utf8), at: 5, definingLinkLabels: ["x"]) == ["x"])
    let preamble = String(decoding: store.preamble(for: ArraySlice("[x]".utf8)).bytes, as: UTF8.self)
    #expect(preamble == "[x]: /early\n\n[x]: /u\n\n[x]: /v\n[y]: /y\n\n")
  }

  /// A text starting `[^label]:` surely defines that footnote; nothing else does.
  @Test func footnoteDefinitionsAtTheStartAreSure() {
    #expect(DefinitionStore.footnoteDefined(atStartOf: ArraySlice("[^Note]: x".utf8)) == "^note")
    #expect(DefinitionStore.footnoteDefined(atStartOf: ArraySlice("[^a]:".utf8)) == "^a")
    for text in ["[^a b]: x", "[^]: x", " [^a]: x", "[^a] x", "[^a]", "[^a\\]]: x", "x\n[^a]: y", "[^a\n]: x"] {
      #expect(DefinitionStore.footnoteDefined(atStartOf: ArraySlice(text.utf8)) == nil, "\(text)")
    }
    // Later copies of a sure definition are not kept.
    var store = DefinitionStore()
    #expect(store.add(ArraySlice("[^a]: one\n".utf8), at: 0, definingLinkLabels: [], footnotes: true) == ["^a"])
    #expect(store.add(ArraySlice("[^a]: two\n".utf8), at: 20, definingLinkLabels: [], footnotes: true).isEmpty)
    let preamble = String(decoding: store.preamble(for: ArraySlice("[^a]".utf8)).bytes, as: UTF8.self)
    #expect(preamble.contains("one") && !preamble.contains("two"))
  }

  @Test func everyDefinitionOfALabelComesInReplyOrder() {
    var store = DefinitionStore()
    store.add(ArraySlice("[a]: /first\n".utf8), at: 0)
    store.add(ArraySlice("[A]: /second\n".utf8), at: 0)
    let preamble = String(decoding: store.preamble(for: ArraySlice("[a]".utf8)).bytes, as: UTF8.self)
    #expect(preamble == "[a]: /first\n\n[A]: /second\n\n")
  }

  /// A footnote definition would take an indented first line of the region as its own: a
  /// one-line HTML comment closes it first.
  @Test func aFootnoteDefinitionIsClosedBeforeTheRegion() {
    var store = DefinitionStore()
    store.add(ArraySlice("[^1]:\n".utf8), at: 0)
    let preamble = store.preamble(for: ArraySlice("    code [^1]\n".utf8))
    #expect(preamble.makesBlocks)
    #expect(String(decoding: preamble.bytes, as: UTF8.self).hasSuffix("<!---->\n\n"))
  }

  /// Found by `replykit fuzz --seed 1217`: `[^1\n\u{FFFD}]` is looked up as `^1`, so the
  /// preamble must hold the definition of `[^1]`.
  @Test func aFootnoteLabelOverLinesGetsTheDefinitionOfItsFirstWord() {
    var store = DefinitionStore()
    store.add(ArraySlice("[^1]: a\n".utf8), at: 0)
    store.add(ArraySlice("[^12]: b\n".utf8), at: 10)
    let preamble = String(decoding: store.preamble(for: ArraySlice("[^1\n\u{FFFD}]".utf8)).bytes, as: UTF8.self)
    #expect(preamble == "[^1]: a\n<!---->\n\n")
  }

  /// A line break in a code span moves no column of cmark-gfm's, so a `]` after one closes a
  /// label longer than its own line says (fuzz seed 1358: `[^1`, `` []` ``, `` `] `` looks up
  /// `1`, and the stream, which left the definition out of the paragraph's preamble, ended with
  /// the brackets as text).
  @Test func aLabelClosedAfterACodeSpanOverLinesGetsItsDefinition() {
    var store = DefinitionStore()
    store.add(ArraySlice("[^1]:\n".utf8), at: 0)
    let preamble = String(decoding: store.preamble(for: ArraySlice("A[^1\n[]`\n`]".utf8)).bytes, as: UTF8.self)
    #expect(preamble.hasPrefix("[^1]:"))
    let text = "[^1]:\nA[^1\n[]`\n`]"
    let oneShot = HTMLRenderer().render(MarkdownDocument(text))
    #expect(oneShot.contains("footnote-ref"))
    for size in [1, 2, 3, 7, text.utf8.count] {
      #expect(StreamingHarness.streamedHTML(text, chunk: size) == oneShot, "chunks of \(size)")
    }
  }

  /// A footnote definition followed into a preamble (a footnote that cites it is in every one)
  /// may define a link label again: placed before the region it won over the region's own,
  /// earlier definition (fuzz seed 1358: `[x]:a` and `[x]` streamed as a link to `v`).
  @Test func aLaterPieceDefiningTheRegionsLabelStaysOut() {
    let text = "[x]:a\n[x]\n[^b]:[^1]\n[^1]:[x]:v\n1. [X]:\n"
    let oneShot = HTMLRenderer().render(MarkdownDocument(text))
    #expect(oneShot.hasPrefix("<p><a href=\"a\">x</a></p>"))
    for size in [1, 3, 7, text.utf8.count] {
      #expect(StreamingHarness.streamedHTML(text, chunk: size) == oneShot, "chunks of \(size)")
    }
  }

  /// A review: a footnote label spanning lines, closed on a line of many digits (which may be
  /// list markers), was reported under every length those allowed, one prefix string each:
  /// m·w bytes for a word of w bytes (30,000 and 30,000: 2.2 s to stream 60 KB). With the
  /// lengths of the labels defined, only those are reported; the definition is still found.
  @Test func aLabelOverLinesIsReportedOnlyUnderDefinedLengths() {
    let word = String(repeating: "a", count: 3_000)
    let region = ArraySlice(Array(("[^" + word + "\n" + String(repeating: "0", count: 3_000) + "]").utf8))
    var all = 0
    ReferenceLabels.forEachUsed(in: region) { _ in all += 1 }
    #expect(all > 2_000)
    var reported: [String] = []
    ReferenceLabels.forEachUsed(in: region, footnoteLengths: [1, 5]) { reported.append($0) }
    #expect(Set(reported.filter { $0.count <= 6 }) == ["^a", "^aaaaa"])
    #expect(reported.count <= 4, "\(reported.count) labels")
    var store = DefinitionStore()
    store.add(ArraySlice("[^aaaaa]: note\n".utf8), at: 0)
    let preamble = String(decoding: store.preamble(for: region, regionStart: 100).bytes, as: UTF8.self)
    #expect(preamble.hasPrefix("[^aaaaa]: note"))
  }

  /// Every `]` of a later line may close a `[^` left open (fuzz seed 1267); a review found the
  /// checks read each caret's word again and reported its labels again at every `]`: 32 open
  /// carets over lines of 32 `[]` each streamed 1 MB in 15.7 s. The word is read once per caret
  /// and each label reported once per caret (a count, not a time).
  @Test func manyClosersOnLaterLinesReadEachCaretsWordOnce() {
    let word = String(repeating: "a", count: 3_000)
    var text = String(repeating: "[^" + word + "`\n", count: 32)
    text += String(repeating: String(repeating: "[]", count: 32) + "\n", count: 30)
    var reported = 0
    ReferenceLabels.forEachUsed(in: ArraySlice(Array(text.utf8)), footnoteLengths: [1, 2, 3, 4, 5]) { _ in
      reported += 1
    }
    // At most each length once for each caret, and the labels the direct closers report.
    #expect(reported <= 32 * 6 + 30 * 32, "\(reported) labels")
    #expect(reported >= 5, "\(reported) labels")
  }

  @Test func aByteOrderMarkStartingTheRegionStaysText() {
    let store = DefinitionStore()
    let preamble = store.preamble(for: ArraySlice([0xEF, 0xBB, 0xBF] + Array("text".utf8)))
    #expect(preamble.bytes == [0x0A])
    #expect(preamble.lines == 1)
  }

  /// cmark-gfm links a label of 1,000 bytes (`MAX_LINK_LABEL_LENGTH`) and reads one of 1,001 as
  /// text; the stream took 999 for the longest, and wrote a use of a 1,000-byte label as text (a
  /// review of cmark-gfm's limits): in every form, streamed in any chunks, the end equals one-shot.
  @Test(arguments: [1000, 1001])
  func aLabelOfTheLongestLengthEndsAsOneShot(length: Int) {
    let label = String(repeating: "a", count: length)
    let accented = String(repeating: "é", count: length / 2)
    let (first, second) = (String(label.dropFirst(500)), String(label.dropFirst(501)))
    let replies = [
      "[" + label + "]: /u\n\n[" + label + "]\n",
      "[" + label + "]\n\n[" + label + "]: /u\n",
      "[" + label + "]: /u\n\n[x][" + label + "]\n",
      "[" + label + "]: /u\n\n[" + label + "][]\n",
      "[" + accented + "]: /u\n\n[" + accented + "]\n",
      "[" + first + "\n" + second + "]: /u\n\n[" + first + " " + second + "]\n",
    ]
    for reply in replies {
      let expected = HTMLRenderer().render(MarkdownDocument(reply))
      for chunk in [1, 7, 64] {
        #expect(StreamingHarness.streamedHTML(reply, chunk: chunk) == expected, "\(length) bytes, chunks of \(chunk)")
      }
    }
  }
}
