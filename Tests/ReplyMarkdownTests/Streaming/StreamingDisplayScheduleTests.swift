import Testing

@testable import ReplyMarkdown

/// The display schedule (``RefreshSchedule/isDisplayDue(openBytes:newBytes:)``): what a consumer
/// renders per update stays linear in the reply however long one open block grows, counted in the
/// bytes the consumer's edits carry (never a time); shorter open blocks change on every update.
@Suite struct StreamingDisplayScheduleTests {
  /// Streams `text` in `chunk`-byte pieces into an HTML consumer, and returns the bytes its edits
  /// carried in all, how many updates changed nothing, and the final HTML.
  static func stream(_ text: String, chunk: Int) -> (rendered: Int, unchanged: Int, html: String) {
    let bytes = Array(text.utf8)
    var stream = MarkdownStream()
    var consumer = MarkdownStreamHTMLRenderer()
    var rendered = 0
    var unchanged = 0
    var offset = 0
    while offset < bytes.count {
      let end = min(bytes.count, offset + chunk)
      let edit = consumer.apply(stream.feed(bytes: bytes[offset..<end]))
      rendered += edit.appended.utf8.count
      if edit.appended.isEmpty && edit.keep == consumer.utf8Count { unchanged += 1 }
      offset = end
    }
    consumer.apply(stream.finish())
    return (rendered, unchanged, consumer.html)
  }

  /// Prose of `count` bytes with no blank line: one line, or lines of about 80 bytes.
  static func paragraph(_ count: Int, lineLength: Int?) -> String {
    let words = ["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "and", "runs", "away"]
    var text = ""
    var line = 0
    var random: UInt64 = 1
    while text.utf8.count < count {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let word = words[Int(random >> 33) % words.count]
      if let lineLength, line + word.count > lineLength {
        text += "\n"
        line = 0
      } else if !text.isEmpty {
        text += " "
        line += 1
      }
      text += word
      line += word.count
    }
    return text + "\n"
  }

  /// A paragraph of 100 KB (found while measuring: on one line, 2 s to HTML and 4 s to the
  /// terminal in 20-byte chunks, each update rendering all of it) is rendered about 17 times in
  /// all, plus every update while it is under the threshold; before, 250 MB of edits.
  @Test(arguments: [nil, 80])
  func aLongParagraphIsRenderedALinearAmount(lineLength: Int?) {
    let text = Self.paragraph(100_000, lineLength: lineLength)
    let outcome = Self.stream(text, chunk: 20)
    #expect(outcome.html == HTMLRenderer().render(MarkdownDocument(text)))
    let n = text.utf8.count
    let underThreshold = RefreshSchedule.displayThreshold * RefreshSchedule.displayThreshold / 20
    #expect(outcome.rendered <= 20 * n + underThreshold, "\(outcome.rendered) bytes of edits for \(n)")
    #expect(outcome.unchanged > 0)
  }

  /// Open blocks up to the threshold show every update's text: after each chunk, the display
  /// holds every word received but the last (which may still grow).
  @Test func aShortParagraphShowsEveryUpdate() {
    let text = Self.paragraph(RefreshSchedule.displayThreshold - 200, lineLength: nil)
    let bytes = Array(text.utf8)
    var stream = MarkdownStream()
    var consumer = MarkdownStreamHTMLRenderer()
    var offset = 0
    while offset < bytes.count - 1 {
      let end = min(bytes.count - 1, offset + 20)
      consumer.apply(stream.feed(bytes: bytes[offset..<end]))
      offset = end
      let words = String(decoding: bytes[..<end], as: UTF8.self)
      guard let lastSpace = words.lastIndex(of: " ") else { continue }
      let shown = "<p>" + words[..<lastSpace]
      #expect(consumer.html.hasPrefix(shown), "after \(end) bytes")
    }
    consumer.apply(stream.finish())
    #expect(consumer.html == HTMLRenderer().render(MarkdownDocument(String(decoding: bytes.dropLast(), as: UTF8.self))))
  }

  @Test func theScheduleWaitsForASixteenthPastTheThreshold() {
    let threshold = RefreshSchedule.displayThreshold
    #expect(RefreshSchedule.isDisplayDue(openBytes: threshold, newBytes: 1))
    #expect(!RefreshSchedule.isDisplayDue(openBytes: 16 * threshold, newBytes: threshold - 1))
    #expect(RefreshSchedule.isDisplayDue(openBytes: 16 * threshold, newBytes: threshold))
  }

  /// A tail that references make far heavier than its text (each `[x]` copies a 4 KB
  /// destination: 900 bytes of them show 400 KB) is shown again only once the new text pays for
  /// it: the edits stay within a bounded multiple of the input and the final output, where every
  /// update rendered it before (fuzz seed 1455, 7 s to the terminal in 5-byte chunks). It still
  /// ends as one-shot rendering does.
  @Test func aTailThatReferencesAmplifyWaitsForTextToPayForIt() {
    let destination = String(repeating: "a@", count: 2000)
    let text = "[x]: " + destination + "\n\nSee " + String(repeating: "[x] ", count: 250) + "end.\n"
    let outcome = Self.stream(text, chunk: 5)
    #expect(outcome.html == HTMLRenderer().render(MarkdownDocument(text)))
    let bound = 64 * text.utf8.count + 4 * outcome.html.utf8.count
    #expect(outcome.rendered <= bound, "\(outcome.rendered) bytes of edits, bound \(bound)")
    #expect(!RefreshSchedule.isDisplayDue(openBytes: 900, newBytes: 5, shownWeight: 400_000))
    #expect(RefreshSchedule.isDisplayDue(openBytes: 900, newBytes: 5, shownWeight: 8 * 1024))
    #expect(RefreshSchedule.isDisplayDue(openBytes: 900, newBytes: 6_250, shownWeight: 400_000))
  }
}
