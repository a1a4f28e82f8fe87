import Testing

@testable import ReplyMarkdown

/// The healer's tests, one suite per source file of `Streaming/Heal/` (under one name, so
/// `swift test --filter Streaming` runs them with the other streaming tests).
@Suite struct StreamingHealTests {}

/// The table rows of every rule, named after it (each file of this folder adds its own).
enum HealTables {
  static let byRule: [HealRule: [HealCase]] = [
    .trailingCarriageReturn: trailingCarriageReturn,
    .growableGrapheme: growableGrapheme,
    .fenceCloserPrefix: fenceCloserPrefix,
    .tablePipesOnly: tablePipesOnly,
    .breakOrSetextCandidate: breakOrSetextCandidate,
    .markerOnlyLine: markerOnlyLine,
    .emptyHeading: emptyHeading,
    .fenceOpener: fenceOpener,
    .shortFenceRun: shortFenceRun,
    .breakAfterContainerMarker: breakAfterContainerMarker,
    .taskMarker: taskMarker,
    .definitionLabel: definitionLabel,
    .definitionLabelOverLines: definitionLabelOverLines,
    .definitionTitleAfterDefinition: definitionTitleAfterDefinition,
    .tableHeaderUntilDelimiterRow: tableHeaderUntilDelimiterRow,
    .unterminatedHTMLBlockTag: unterminatedHTMLBlockTag,
    .trailingMarkers: trailingMarkers,
    .unterminatedInlineTag: unterminatedInlineTag,
    .partialEntity: partialEntity,
    .imageHiddenUntilComplete: imageHiddenUntilComplete,
    .emptyLinkHidden: emptyLinkHidden,
    .pendingLinkShowsText: pendingLinkShowsText,
    .inlineClosersInnermostFirst: inlineClosersInnermostFirst,
    .wordReopensEmphasis: wordReopensEmphasis,
    .wideScriptOpensEmphasis: wideScriptOpensEmphasis,
    .leafKeepsItsKind: leafKeepsItsKind,
    .closersNeverShow: closersNeverShow,
    .pendingReferenceLink: pendingReferenceLink,
    .unresolvedFootnoteReference: unresolvedFootnoteReference,
    .openFenceLineNewline: openFenceLineNewline,
  ]
}

extension StreamingHealTests {
  @Suite struct HealRuleTests {
    @Test func everyRuleHasATableWithARowItApplies() {
      for rule in HealRule.allCases {
        let rows = HealTables.byRule[rule] ?? []
        let applied = rows.contains { $0.applies }
        #expect(applied, "\(rule) has no table row it applies to")
      }
    }

    @Test func everyRuleSaysWhatItHoldsOrCloses() {
      for rule in HealRule.allCases {
        #expect(!rule.summary.isEmpty)
        #expect(!rule.summary.contains("\n"), "\(rule): one line")
      }
      #expect(Set(HealRule.allCases.map(\.summary)).count == HealRule.allCases.count)
    }

    @Test func lineHoldsAreTheLineRulesInTableOrder() {
      let ordered = HealRule.allCases.filter(LineHold.rules.contains)
      #expect(ordered == LineHold.rules)
    }

    @Test func appliedRulesAreASet() {
      var applied = AppliedHealRules()
      applied.insert(.wordReopensEmphasis)
      applied.insert(.trailingCarriageReturn)
      applied.insert(.wordReopensEmphasis)
      #expect(applied.rules == [.trailingCarriageReturn, .wordReopensEmphasis])
      #expect(!applied.contains(.markerOnlyLine))
    }
  }
}
