/// Options for parsing markdown with cmark-gfm.
///
/// The default, ``ParseOptions/github``, is GitHub's flavour: all five extensions and footnotes on,
/// smart punctuation off.
public struct ParseOptions: OptionSet, Sendable, Hashable, Codable {
  public let rawValue: UInt32

  /// Creates options from their raw bits.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// GFM tables (pipe tables with a delimiter row).
  public static let tables = ParseOptions(rawValue: 1 << 0)
  /// GFM strikethrough with `~` and `~~`.
  public static let strikethrough = ParseOptions(rawValue: 1 << 1)
  /// GFM extended autolinks: bare `www.`, `http(s)://` URLs and e-mail addresses.
  public static let autolinks = ParseOptions(rawValue: 1 << 2)
  /// GFM tag filter: `<script>`, `<style>`, `<iframe>` and similar raw tags are neutralised in HTML.
  public static let tagFilter = ParseOptions(rawValue: 1 << 3)
  /// GFM task list items (`- [ ]`, `- [x]`).
  public static let taskLists = ParseOptions(rawValue: 1 << 4)
  /// Footnotes (`[^1]` references and `[^1]: text` definitions).
  public static let footnotes = ParseOptions(rawValue: 1 << 5)
  /// Smart punctuation: straight quotes become curly, `--` an en dash, `---` an em dash, `...` an ellipsis.
  public static let smartPunctuation = ParseOptions(rawValue: 1 << 6)
  /// Strikethrough only with exactly two tildes (`~~x~~`), not one.
  public static let strikethroughDoubleTilde = ParseOptions(rawValue: 1 << 7)
  /// Liberal HTML tag parsing, as cmark-gfm's `CMARK_OPT_LIBERAL_HTML_TAG`.
  public static let liberalHTMLTags = ParseOptions(rawValue: 1 << 8)

  /// The five GFM extensions: tables, strikethrough, autolinks, tag filter, task lists.
  public static let gfmExtensions: ParseOptions = [.tables, .strikethrough, .autolinks, .tagFilter, .taskLists]

  /// GitHub's flavour: the five extensions and footnotes, without smart punctuation. The default.
  public static let github: ParseOptions = [.gfmExtensions, .footnotes]

  /// Plain CommonMark: no extensions.
  public static let commonMark: ParseOptions = []
}
