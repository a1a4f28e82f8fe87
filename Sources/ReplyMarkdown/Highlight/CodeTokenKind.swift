/// What a run of code is: the default text styles of KSyntaxHighlighting, in its order.
///
/// The raw values are stable: HTML names a span's class after them (``cssClass``).
public enum CodeTokenKind: String, Sendable, Hashable, Codable, CaseIterable {
  case normal, keyword, function, variable, controlFlow, `operator`, builtIn, `extension`
  case preprocessor, attribute, char, specialChar, string, verbatimString, specialString
  case `import`, dataType, decimal, baseN, float, constant, comment, documentation, annotation
  case commentVariable, regionMarker, information, warning, alert, error, others

  /// The kind at a position of KSyntaxHighlighting's `Theme::TextStyle` (0 = normal … 30 =
  /// others); `others` past the end.
  public init(textStyle: Int) {
    let all = Self.allCases
    self = textStyle >= 0 && textStyle < all.count ? all[textStyle] : .others
  }

  /// The class of a span of this kind in HTML: `hl-` and the raw value in kebab case
  /// (`hl-keyword`, `hl-control-flow`).
  public var cssClass: String {
    var result = "hl-"
    for character in rawValue {
      if character.isUppercase {
        result.append("-")
        result.append(contentsOf: character.lowercased())
      } else {
        result.append(character)
      }
    }
    return result
  }
}
