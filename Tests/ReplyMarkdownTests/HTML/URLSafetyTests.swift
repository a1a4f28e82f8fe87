import ReplyKitFuzz
import Testing

@testable import ReplyMarkdown

/// ``URLSafety/isDangerous(_:)`` reads bytes in place; these check it against the plain
/// definition (lower-case the first bytes, compare prefixes) on named cases and seeded random URLs.
@Suite struct URLSafetyTests {
  /// The definition the byte-level check stands for.
  static func reference(_ url: String) -> Bool {
    let lower = String(decoding: url.utf8.prefix(16).map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    for safe in ["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"] where lower.hasPrefix(safe) {
      return false
    }
    return ["javascript:", "vbscript:", "file:", "data:"].contains { lower.utf8.starts(with: $0.utf8) }
  }

  @Test(arguments: [
    ("javascript:alert(1)", true), ("JaVaScRiPt:alert(1)", true), ("vbscript:msgbox", true),
    ("VBSCRIPT:x", true), ("file:///etc/passwd", true), ("FILE:x", true), ("data:text/html,<b>", true),
    ("DATA:,x", true), ("data:image/png;base64,AA", false), ("DATA:IMAGE/PNG;base64,AA", false),
    ("data:image/gif,x", false), ("data:image/jpeg,x", false), ("data:image/webp,x", false),
    ("data:image/svg+xml,<svg>", true), ("data:image/pn", true), ("https://example.com", false),
    ("javascript", false), ("javascript :x", false), (" javascript:x", false), ("", false), ("d", false),
    ("f", false), ("filex:", false), ("/javascript:x", false), ("#top", false), ("jávascript:x", false),
  ])
  func namedCases(_ url: String, _ dangerous: Bool) {
    #expect(URLSafety.isDangerous(url) == dangerous, "\(url.debugDescription)")
    #expect(Self.reference(url) == dangerous, "\(url.debugDescription)")
  }

  @Test func matchesTheDefinitionOnRandomURLs() {
    let pieces = [
      "j", "J", "a", "v", "V", "s", "c", "r", "i", "p", "t", ":", "f", "F", "l", "e", "d", "D", "m", "g", "/", "n",
      "png", "gif", "jpeg", "webp", "javascript", "vbscript", "file", "data", "image", "IMAGE", "é", "\u{0}", " ",
      "http", "://", "日",
    ]
    var generator = SplitMix64(seed: 1202)
    for round in 0..<20000 {
      var url = ""
      for _ in 0..<(round % 9) { url += pieces[Int(generator.next() % UInt64(pieces.count))] }
      #expect(URLSafety.isDangerous(url) == Self.reference(url), "\(url.debugDescription)")
    }
  }
}
