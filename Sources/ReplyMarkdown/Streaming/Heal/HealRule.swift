/// The healer's rules: every way ``StreamHealer`` holds back or closes part of the open tail, in
/// the order the healer applies them. This enum is the table: one case per rule, and ``summary``
/// says in one line what the rule holds or closes and why.
///
/// A *hold* hides bytes the next characters could still turn into something else; a *close*
/// appends what an unclosed construct would get once its natural closer arrives; a *mark* changes
/// the parsed display. Holds never reach before the current line (the line just ended, when the
/// text ends with a line break), except a table header waiting for its delimiter row and a
/// definition's label over lines closed on the last line. Each rule has its own table test in
/// `Tests/…/Streaming/Heal/`.
enum HealRule: Int, CaseIterable, Sendable {
  // Received bytes.
  case trailingCarriageReturn
  case growableGrapheme
  // The last line, inside an open fence.
  case fenceCloserPrefix
  // The last line, in blocks (``LineHold``).
  case tablePipesOnly
  case breakOrSetextCandidate
  case markerOnlyLine
  case emptyHeading
  case fenceOpener
  case shortFenceRun
  case breakAfterContainerMarker
  case taskMarker
  case definitionLabel
  // The last line under the lines before it (``DefinitionLabelOverLinesHold``, ``DefinitionTitleHold``).
  case definitionLabelOverLines
  case definitionTitleAfterDefinition
  // The parsed open block.
  case tableHeaderUntilDelimiterRow
  case unterminatedHTMLBlockTag
  // The open block's inline content (``InlineHealScanner``).
  case trailingMarkers
  case unterminatedInlineTag
  case partialEntity
  case imageHiddenUntilComplete
  case emptyLinkHidden
  case pendingLinkShowsText
  case inlineClosersInnermostFirst
  case wordReopensEmphasis
  case wideScriptOpensEmphasis
  // The healed open paragraph or heading (``StreamHealer``).
  case leafKeepsItsKind
  case closersNeverShow
  // The healed document.
  case pendingReferenceLink
  case unresolvedFootnoteReference
  case openFenceLineNewline

  /// What the rule holds or closes, and why.
  var summary: String {
    switch self {
    case .trailingCarriageReturn:
      "Holds a final CR: a LF may follow, and CRLF is one line break."
    case .growableGrapheme:
      "Holds a final emoji, flag half, combining mark or jamo: later scalars can still join it."
    case .fenceCloserPrefix:
      "Holds a last line inside a fence that could still become its closing fence (`` `` ``)."
    case .tablePipesOnly:
      "Holds a last line of only pipes: an empty row (or a lone `|`) shows nothing useful yet."
    case .breakOrSetextCandidate:
      "Holds `-`, `=`, `*`, `_` runs that may still become a setext underline, a break or a list."
    case .markerOnlyLine:
      "Holds a line of only list or quote markers (`-`, `2`, `2.`, `>`): an empty item shows nothing."
    case .emptyHeading:
      "Holds `#` to `######` with no text yet: an empty heading, or a `#tag` still arriving."
    case .fenceOpener:
      "Holds a fence opener until its info string line ends (the language is still arriving)."
    case .shortFenceRun:
      "Holds one or two backticks or tildes alone: the start of a fence opener or closer."
    case .breakAfterContainerMarker:
      "Holds `- -`, `> ---`: after a marker, a run that may still become a break or underline."
    case .taskMarker:
      "Holds `- [`, `- [x`, `- [ ]` with nothing after: a task marker still arriving."
    case .definitionLabel:
      "Holds `[label` or `[label]` (or `]:`) at a line start: it may be a definition, which shows nothing."
    case .definitionLabelOverLines:
      "Holds a label over lines from its `[` once the last line closes it with `]:` (or `]`): a definition, which shows nothing."
    case .tableHeaderUntilDelimiterRow:
      "Holds a row with pipes (and its delimiter row) until the delimiter row is complete."
    case .definitionTitleAfterDefinition:
      "Holds a line opening with a quote or `(` under an untitled definition: it may be its title."
    case .unterminatedHTMLBlockTag:
      "Hides a tag still arriving at the end of a raw HTML block (`<div>content</di`)."
    case .trailingMarkers:
      "Holds trailing `*`, `_`, `~`, backticks, a backslash and spaces: their meaning depends on what follows."
    case .unterminatedInlineTag:
      "Hides a `<`, tag, comment or autolink still arriving: it may be raw HTML, which shows no text."
    case .partialEntity:
      "Hides `&name` or `&#123` still arriving: it may become one character."
    case .imageHiddenUntilComplete:
      "Hides an image until its `)` arrives: a partial source must never load."
    case .emptyLinkHidden:
      "Hides a `[` with no text yet: nothing to show for a link still arriving."
    case .pendingLinkShowsText:
      "Shows `[text](` and `[text][label` as a pending link: its text, never the partial URL."
    case .inlineClosersInnermostFirst:
      "Closes unclosed code spans, emphasis, strikethrough and link text, innermost first, each closer its own run."
    case .wordReopensEmphasis:
      "Closes an intraword run that reopens right after a run closed in the same word (`*foo*bar*baz`)."
    case .wideScriptOpensEmphasis:
      "Closes an intraword `*` or `~` run next to CJK text, which has no spaces around emphasis (`这是**重要`)."
    case .leafKeepsItsKind:
      "Holds a paragraph's last line (a heading whole) when the holds and closers made it another block (break, fence)."
    case .closersNeverShow:
      "Holds a paragraph's last line (a heading or row whole) when the parse read a closer into an address, tag or code."
    case .pendingReferenceLink:
      "Shows `[text]`, `[text][label]` whose definition has not arrived as pending links."
    case .unresolvedFootnoteReference:
      "Hides `[^label]` whose definition has not arrived: it becomes a superscript number."
    case .openFenceLineNewline:
      "Drops the newline cmark adds after an open fence's incomplete last line."
    }
  }
}

/// A set of ``HealRule``s (one bit each, no allocation): which rules one heal applied.
struct AppliedHealRules: Equatable, Sendable {
  private var bits: UInt64 = 0

  /// Records that `rule` changed the display.
  mutating func insert(_ rule: HealRule) { bits |= 1 << UInt64(rule.rawValue) }

  mutating func formUnion(_ other: AppliedHealRules) { bits |= other.bits }

  func contains(_ rule: HealRule) -> Bool { bits & (1 << UInt64(rule.rawValue)) != 0 }

  /// The rules applied, in table order.
  var rules: [HealRule] { HealRule.allCases.filter(contains) }
}
