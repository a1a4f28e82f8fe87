import Testing

@testable import ReplyMarkdown

/// One row of a heal rule's table: the text received so far, the display expected for it
/// (normalised as the shared streaming cases write it) and whether the rule is what shapes it.
struct HealCase: Sendable, CustomTestStringConvertible {
  let input: String
  let show: String
  /// Whether the rule under test applies (`false`: a near miss the rule must leave alone).
  let applies: Bool
  /// The fence character when the last line is inside an open fence (its opener is the first line).
  let fence: UInt8?

  init(_ input: String, _ show: String, applies: Bool = true, fence: UInt8? = nil) {
    self.input = input
    self.show = show
    self.applies = applies
    self.fence = fence
  }

  var testDescription: String { "\(input.debugDescription) → \(show.debugDescription)" }

  /// The healed display of ``input`` and the rules that shaped it.
  func heal() -> (show: String, rules: AppliedHealRules) {
    let bytes = Array(input.utf8)
    var protectedLength = 0
    var context = StreamHealer.Context.blocks
    if let fence, let newline = bytes.firstIndex(of: ASCII.newline) {
      protectedLength = newline + 1
      context = .fencedCode(fence: fence, length: bytes.prefix { $0 == fence }.count)
    }
    var applied = AppliedHealRules()
    var healer = StreamHealer(options: StreamingHarness.caseOptions)
    let healed = healer.heal(bytes, protectedLength: protectedLength, context: context, applied: &applied)
    return (HealCase.render(healed), applied)
  }

  /// Checks the display, and that `rule` applied exactly when the row says so.
  func check(_ rule: HealRule, sourceLocation: SourceLocation = #_sourceLocation) {
    let (shown, applied) = heal()
    #expect(shown == show, "\(rule)", sourceLocation: sourceLocation)
    #expect(
      applied.contains(rule) == applies, "\(rule) applied: \(applied.rules)", sourceLocation: sourceLocation)
  }

  /// Renders a healed document as the stream's HTML renderer shows it, normalised.
  static func render(_ healed: StreamHealer.Healed) -> String {
    StreamingHarness.normalise(StreamingHarness.caseRenderer.render(healed.document))
  }
}
