import Testing

@testable import ReplyMarkdown

@Suite struct InlineStartProbesTests {
  private func bytes(_ text: String) -> ArraySlice<UInt8> { ArraySlice(text.utf8) }

  @Test func answersHoldWhileTheParagraphGrowsAtItsEnd() {
    var probes = InlineStartProbes()
    probes.begin(bytes("[a]: /u\n[b"))
    #expect(probes.answer(length: 8) == nil)
    probes.record(true, for: bytes("[a]: /u\n"))
    probes.begin(bytes("[a]: /u\n[b]: /v\nmore"))
    #expect(probes.answer(length: 8) == true)
    probes.record(false, for: bytes("[a]: /u\n[b]: /v\n"))
    probes.begin(bytes("[a]: /u\n[b]: /v\nmore words"))
    #expect(probes.answer(length: 8) == true)
    #expect(probes.answer(length: 16) == false)
    #expect(probes.answer(length: 12) == nil)
  }

  @Test func answersPastADifferenceAreDropped() {
    var probes = InlineStartProbes()
    probes.begin(bytes("[a]: /u\n[b]: /v\n"))
    probes.record(true, for: bytes("[a]: /u\n"))
    probes.record(true, for: bytes("[a]: /u\n[b]: /v\n"))
    // Another paragraph sharing the first line: its answer stands, the second's does not.
    probes.begin(bytes("[a]: /u\n[c]: /w\n"))
    #expect(probes.answer(length: 8) == true)
    #expect(probes.answer(length: 16) == nil)
    // One differing in its first byte keeps nothing.
    probes.begin(bytes("(a]: /u\n"))
    #expect(probes.answer(length: 8) == nil)
  }

  @Test func aShorterParagraphKeepsTheAnswersItHolds() {
    var probes = InlineStartProbes()
    probes.begin(bytes("[a]: /u\n[b]: /v\n"))
    probes.record(true, for: bytes("[a]: /u\n"))
    probes.record(false, for: bytes("[a]: /u\n[b]: /v\n"))
    // The same paragraph without its last line (a heal that holds it), then whole again.
    probes.begin(bytes("[a]: /u\n"))
    #expect(probes.answer(length: 8) == true)
    probes.begin(bytes("[a]: /u\n[b]: /v\n"))
    #expect(probes.answer(length: 16) == false)
  }
}
