/// The answers of ``StreamHealer``'s probes for where an open paragraph's inline content starts,
/// kept from one heal to the next.
///
/// A probe asks whether the paragraph's first lines, parsed alone, are nothing but link reference
/// definitions. Its answer depends only on those bytes (and the parse options, which a stream
/// never changes), and an open paragraph grows only at its end, so the next update's heal asks
/// the same questions again. The answers are kept for prefixes of one byte string, the paragraph
/// last asked about: a question about a prefix both paragraphs share is answered without a parse,
/// and a paragraph that differs earlier drops the answers past the difference. While the heals
/// ask about no other paragraph in between, each leading line of an open paragraph is parsed for
/// this once, not once per update (a 2.7 KB line that looks like a definition without being one
/// cost up to eight parses of it per update: fuzz seed 1317).
struct InlineStartProbes: Sendable {
  /// A prefix of the paragraph last asked about, as long as the longest question answered.
  private var bytes: [UInt8] = []
  /// Whether the prefix of `bytes` of each length asked about is nothing but definitions.
  private var answers: [Int: Bool] = [:]

  /// Keeps the answers that hold for `paragraph` (its bytes from its first): those about the
  /// prefixes it shares with the paragraph asked about before. Questions until the next call are
  /// about prefixes of `paragraph`.
  ///
  /// - Complexity: O(n) in the bytes kept.
  mutating func begin(_ paragraph: ArraySlice<UInt8>) {
    var shared = 0
    let limit = min(bytes.count, paragraph.count)
    while shared < limit && bytes[shared] == paragraph[paragraph.startIndex + shared] { shared += 1 }
    // One a prefix of the other: every answer holds (a heal that holds the last line back asks
    // about the paragraph without it, and the next heal about the whole paragraph again).
    guard shared < limit else { return }
    bytes.removeSubrange(shared...)
    answers = answers.filter { $0.key <= shared }
  }

  /// The answer for the first `length` bytes of the paragraph given to ``begin(_:)``, if known.
  func answer(length: Int) -> Bool? { answers[length] }

  /// Records `answer` for `prefix`, a prefix of the paragraph given to ``begin(_:)``.
  mutating func record(_ answer: Bool, for prefix: ArraySlice<UInt8>) {
    if prefix.count > bytes.count { bytes.append(contentsOf: prefix.dropFirst(bytes.count)) }
    answers[prefix.count] = answer
  }
}
