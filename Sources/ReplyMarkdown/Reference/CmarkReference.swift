import CCmarkGFM

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// cmark-gfm's own renderers, called through the C library: the reference that ReplyKit's Swift
/// renderers are tested against (differential tests, the fuzzer, benchmarks).
///
/// Thread-safe: parsing goes through the same process-wide lock as ``MarkdownDocument``.
public enum CmarkReference {
  /// Renders `markdown` to HTML with `cmark_render_html`, given the parser's extension list.
  public static func html(
    _ markdown: String, options: ParseOptions = .github, renderOptions: HTMLRenderer.Options = []
  ) -> String {
    CmarkBridge.referenceHTML(markdown, options: options, renderOptions: cmarkBits(renderOptions))
  }

  /// Renders `markdown` to plain text with `cmark_render_plaintext` (no wrapping).
  public static func plainText(_ markdown: String, options: ParseOptions = .github) -> String {
    CmarkBridge.withParsedTree(markdown, options: options) { root, _ in
      guard let text = cmark_render_plaintext(root, CmarkBridge.cmarkOptions(options), 0) else { return "" }
      defer { free(text) }
      return String(cString: text)
    }
  }

  /// The version of the linked C library, for example `0.29.0.gfm.6`.
  public static var version: String { String(cString: cmark_version_string()) }

  static func cmarkBits(_ options: HTMLRenderer.Options) -> Int32 {
    var bits: Int32 = 0
    if options.contains(.unsafe) { bits |= CMARK_OPT_UNSAFE }
    if options.contains(.hardBreaks) { bits |= CMARK_OPT_HARDBREAKS }
    if options.contains(.noBreaks) { bits |= CMARK_OPT_NOBREAKS }
    if options.contains(.sourcePositions) { bits |= CMARK_OPT_SOURCEPOS }
    if options.contains(.githubPreLang) { bits |= CMARK_OPT_GITHUB_PRE_LANG }
    if options.contains(.fullInfoString) { bits |= CMARK_OPT_FULL_INFO_STRING }
    if options.contains(.tablePreferStyleAttributes) { bits |= CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES }
    return bits
  }
}
