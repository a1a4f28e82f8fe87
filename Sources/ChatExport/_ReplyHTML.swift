import ReplyMarkdown

/// A reply's safe HTML with each code block wrapped in the page's code frame: the language as a
/// caption and a Copy button (hidden until the script runs).
///
/// Works on the bytes of ``HTMLRenderer``'s safe output: raw HTML is omitted there, so
/// `<pre><code` and `</code></pre>` can only be the renderer's own code block markup (text inside
/// is escaped). The n-th frame belongs to the n-th code block in document order, the order of
/// ``PlainTextRenderer/codeBlocks(in:)``.
///
/// - Complexity: O(n) in the size of the HTML.
enum _ReplyHTML {
  private static let open = Array("<pre><code".utf8)
  private static let close = Array("</code></pre>".utf8)
  private static let languageClass = Array(" class=\"language-".utf8)

  /// The framed HTML of `html` (one reply's safe rendering); `codeCount` tells how many code
  /// blocks the document has, so a reply without code skips the scan.
  static func framingCodeBlocks(_ html: String, codeCount: Int) -> String {
    guard codeCount > 0 else { return html }
    let bytes = Array(html.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + codeCount * 220)
    var position = 0
    var index = 0
    while let start = find(open, in: bytes, from: position),
      let tagEnd = bytes[(start + open.count)...].firstIndex(of: UInt8(ascii: ">")),
      let end = find(close, in: bytes, from: tagEnd)
    {
      output.append(contentsOf: bytes[position..<start])
      var language: ArraySlice<UInt8> = []
      if let classStart = find(languageClass, in: bytes, from: start + open.count), classStart < tagEnd {
        let valueStart = classStart + languageClass.count
        let valueEnd = bytes[valueStart..<tagEnd].firstIndex(of: UInt8(ascii: "\"")) ?? tagEnd
        language = bytes[valueStart..<valueEnd]
      }
      output.append(contentsOf: "<div class=\"code\"><div class=\"code-head\"><span class=\"code-lang\">".utf8)
      output.append(contentsOf: language)
      output.append(
        contentsOf: "</span><button class=\"code-copy\" type=\"button\" data-action=\"copy\" data-code=\"".utf8)
      output.append(contentsOf: String(index).utf8)
      output.append(contentsOf: "\" aria-label=\"Copy code\" hidden>Copy</button></div>".utf8)
      output.append(contentsOf: bytes[start..<(end + close.count)])
      output.append(contentsOf: "</div>".utf8)
      position = end + close.count
      index += 1
    }
    output.append(contentsOf: bytes[position...])
    return String(decoding: output, as: UTF8.self)
  }

  /// The first index of `pattern` in `bytes` at or after `from`.
  private static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
    guard let first = pattern.first, pattern.count <= bytes.count else { return nil }
    var index = from
    let last = bytes.count - pattern.count
    while index <= last {
      if bytes[index] == first && bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
      index += 1
    }
    return nil
  }
}
