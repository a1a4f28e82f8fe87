import ReplyMarkdown

/// A reply's safe HTML with each code block wrapped in the page's code frame: the language as a
/// caption and a Copy button (hidden until the script runs).
///
/// Works on the text of ``HTMLRenderer``'s safe output: raw HTML is omitted there, so
/// `<pre><code` and `</code></pre>` can only be the renderer's own code block markup (text inside
/// is escaped). The n-th frame belongs to the n-th code block in document order, the order of
/// ``PlainTextRenderer/codeBlocks(in:)``.
enum _ReplyHTML {
  /// The frame for `html` (one reply's safe rendering); `codeCount` tells how many code blocks
  /// the document has, so a reply without code skips the scan.
  static func framingCodeBlocks(_ html: String, codeCount: Int) -> String {
    guard codeCount > 0 else { return html }
    var output = ""
    output.reserveCapacity(html.utf8.count + codeCount * 220)
    var rest = html[...]
    var index = 0
    while let open = rest.range(of: "<pre><code") {
      output += rest[..<open.lowerBound]
      let afterOpen = rest[open.upperBound...]
      guard let tagEnd = afterOpen.firstIndex(of: ">") else { break }
      let attributes = afterOpen[..<tagEnd]
      var language = ""
      if let classStart = attributes.range(of: " class=\"language-") {
        language = String(attributes[classStart.upperBound...].prefix { $0 != "\"" })
      }
      guard let close = rest[open.lowerBound...].range(of: "</code></pre>") else {
        rest = rest[open.lowerBound...]
        break
      }
      output += "<div class=\"code\"><div class=\"code-head\"><span class=\"code-lang\">\(language)</span>"
      output += "<button class=\"code-copy\" type=\"button\" data-action=\"copy\" data-code=\"\(index)\" "
      output += "aria-label=\"Copy code\" hidden>Copy</button></div>"
      output += rest[open.lowerBound..<close.upperBound]
      output += "</div>"
      rest = rest[close.upperBound...]
      index += 1
    }
    output += rest
    return output
  }
}
