import ReplyKitFuzz
import Testing

@testable import ReplyMarkdown

/// Inputs on which a shortcut of the stream showed other than a parse after every update shows
/// (``FuzzOracle/shortcutDifference(_:chunks:options:unsafe:)``, the check `streaming-shortcuts`),
/// found by a sweep of the spec examples, the fuzz regressions and generated replies: each row
/// names the shortcut and fails without its change.
@Suite struct StreamingShortcutFindingTests {
  static let words = String(repeating: "word ", count: 30)
  static func fence(_ character: String, _ count: Int) -> String { String(repeating: character, count: count) }

  static let findings: [(shortcut: String, text: String)] = [
    // Words added without a parse: a label over lines, then `:`, waits for its destination.
    ("extension after a label over lines", "[\nfoo\n]: /"),
    ("extension after a label over lines", "[Foo\n  bar]: /url 'title'\n\n[Foo bar]\n"),
    ("extension after a label over lines", "- [\n  foo\n  ]: /u\n"),
    // Words added without a parse: the literal `a` matched the hidden reference's last byte.
    ("extension after a hidden reference", "a [^a b][x]\n"),
    // A clean point after a marker run that a full heal holds back with the marker after it.
    ("clean point after markers", words + String(repeating: "*", count: 66) + " _x y"),
    ("clean point after markers", words + String(repeating: "*", count: 64) + " _x y"),
    // A clean point on a task item's line, then `[x]` after it (cmark-gfm checks the item).
    ("clean point on a task item's line", "* [ ] " + words + "see [x] more\n"),
    // Words added without a parse after a task marker, whose text opens a definition's label.
    ("extension after a task marker", "- [ ] [^1  ]:\t3\n"),
    ("extension after a task marker", "> - [x] [a]: /u\n"),
    // Words added without a parse inside emphasis, after or ending in punctuation (fuzz seed 1354).
    ("extension inside emphasis before punctuation", "**fo **bar(*  .   . 1  1.    1 1.1.1..1. .. 1. . 1.1.."),
    // A clean point in a paragraph that may still be a definition, its label over lines (fuzz
    // seed 1354).
    (
      "clean point in a paragraph that may be a definition",
      "\n\n[\nx|\nx|\nx|\nxx|\n" + String(repeating: "x|\n", count: 30) + "bar]: /url \"t baitle\""
    ),
    // An escaped bracket, which the heal showed as a pending link's and the words added without a
    // parse as text (fuzz seed 1356).
    ("escaped bracket", "> not a tag\n\\[not a link](/fo" + String(repeating: "(", count: 99)),
    // An open fence's code past an opener of more than 255 backticks, which cmark-gfm keeps as
    // 255: a line of 255 closes it (fuzz seed 1359).
    ("open fence's code after a long opener", fence("`", 256) + "\n" + fence("`", 255) + "\n"),
    ("open fence's code after a long opener", fence("~", 300) + "\nx\n" + fence("~", 255) + "\ny\n"),
    // The known paragraph, its last character still growable: nothing of it left to heal.
    ("known paragraph emptied by a byte hold", "* [ ] e\u{301} `c`\n"),
    // Lines continuing a long list's open item, taken without a parse, after a table in the
    // item: a line that ends a table of no body rows makes cmark-gfm's list loose with no blank
    // line, and the heal holds a line of only `|` as a possible header (a helper's review of
    // 4b4aabd).
    ("lines continuing the open item after a table", "- a\n- l\n*||`\n  -|-|-\n  |\n"),
    ("lines continuing the open item after a table", "- a\n- b\n  c|d\n  -|-\n  |\n  e\n"),
    ("lines continuing the open item after a table", "- a\n- b\n  c\n  :-\n  |\n"),
    // A clean point after a word holding `www.`, which cmark-gfm links once text follows it
    // (fuzz seed 1415).
    ("clean point after an address", "www. " + String(repeating: "a_ ", count: 41) + "a"),
    ("clean point after an address", "See WWW. and more words after it"),
    ("clean point after an address", "See www.a_ and more words after it"),
  ]

  @Test(arguments: findings.indices)
  func aShortcutShowsWhatTheParseShows(row: Int) {
    let bytes = Array(Self.findings[row].text.utf8)
    var sizes = [3, 7, 20]
    if bytes.count <= 600 { sizes.insert(1, at: 0) }
    var chunkings = sizes.map { size in
      stride(from: 0, to: bytes.count, by: size).map { $0..<min(bytes.count, $0 + size) }
    }
    // And as the fuzz oracle cuts it.
    chunkings.append(FuzzOracle.chunks(of: bytes, seed: FuzzOracle.fnv1a(bytes) &+ 1))
    for chunks in chunkings {
      let size = chunks.first?.count ?? 0
      let difference = FuzzOracle.shortcutDifference(bytes, chunks: chunks, options: .github, unsafe: false)
      #expect(difference == nil, "\(Self.findings[row].shortcut), chunks from \(size) bytes: \(difference ?? "")")
    }
  }
}
