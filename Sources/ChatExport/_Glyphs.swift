/// The page's SVG glyphs, drawn on a 24-unit grid: defined once as symbols and drawn with `<use>`,
/// so a thousand action rows do not repeat their paths. Stroke and fill come from the style
/// sheet (`.glyph`), in `currentColor`, so a glyph takes its button's colour and size.
enum _Glyphs {
  /// A named glyph.
  enum Name: String {
    case copy, share, thumbUp = "thumb-up", thumbDown = "thumb-down", warning, link, image, markdown, download
  }

  private static let thumb =
    "<path d=\"M7.5 10.5 11 3.8c1.4 0 2.6 1.1 2.3 2.6l-.7 3.1h5.2a2 2 0 0 1 2 2.4l-1.3 6.3a2.3 2.3 0 0 1-2.3 1.8H7.5Z\"/>"
    + "<path d=\"M7.5 10.5h-3v9.5h3\"/>"

  /// The hidden `<svg>` holding every symbol; written once, before the thread.
  static let symbols: String = {
    let paths: [(Name, String)] = [
      (
        .copy,
        "<rect x=\"8.5\" y=\"8.5\" width=\"11.5\" height=\"11.5\" rx=\"2.5\"/>"
          + "<path d=\"M15.5 5.5V5a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v7.5a2 2 0 0 0 2 2h.5\"/>"
      ),
      (
        .share,
        "<path d=\"M12 14.5V3.5M8 7.25 12 3.5l4 3.75\"/>"
          + "<path d=\"M8.5 10H7a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7a2 2 0 0 0-2-2h-1.5\"/>"
      ),
      (.thumbUp, thumb),
      (
        .link,
        "<path d=\"M10 14a4.5 4.5 0 0 0 6.4 0l3-3a4.5 4.5 0 0 0-6.4-6.4l-1 1\"/>"
          + "<path d=\"M14 10a4.5 4.5 0 0 0-6.4 0l-3 3a4.5 4.5 0 0 0 6.4 6.4l1-1\"/>"
      ),
      (
        .image,
        "<rect x=\"3.5\" y=\"4.5\" width=\"17\" height=\"15\" rx=\"2.5\"/>"
          + "<path d=\"m4 17 5-5 4 4 2.5-2.5L20 18\"/><path d=\"M15.5 9v.1\"/>"
      ),
      (
        .markdown,
        "<rect x=\"2.5\" y=\"5.5\" width=\"19\" height=\"13\" rx=\"2.5\"/>"
          + "<path d=\"M6 15V9l2.5 3L11 9v6M16 9v6m-2-2 2 2 2-2\"/>"
      ),
      (.download, "<path d=\"M12 4v11M7.5 11 12 15.5 16.5 11M5 20h14\"/>"),
      (.thumbDown, "<g transform=\"rotate(180 12 12)\">\(thumb)</g>"),
      (
        .warning,
        "<path d=\"M10.3 4.2 2.9 17.5A2 2 0 0 0 4.6 20.5h14.8a2 2 0 0 0 1.7-3L13.7 4.2a2 2 0 0 0-3.4 0Z\"/>"
          + "<path d=\"M12 9.5v4.5M12 17.2v.1\"/>"
      ),
    ]
    let body = paths.map { "<symbol id=\"g-\($0.0.rawValue)\" viewBox=\"0 0 24 24\">\($0.1)</symbol>" }.joined()
    return "<svg class=\"glyph-defs\" aria-hidden=\"true\" focusable=\"false\">\(body)</svg>"
  }()

  /// One drawn glyph.
  static func use(_ name: Name) -> String {
    "<svg class=\"glyph\" aria-hidden=\"true\" focusable=\"false\"><use href=\"#g-\(name.rawValue)\"/></svg>"
  }
}
