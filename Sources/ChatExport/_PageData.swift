import Foundation

/// The data block of the page: the texts that Copy, "Copy as markdown", "Copy conversation" and
/// "Download .md" put on the clipboard or in the file, Copy on each code block, and the few
/// words the script writes.
///
/// Written as JSON inside `<script type="application/json">`, which browsers never run; every `<`
/// is written as `\u003c`, so no text can close the element or open a comment.
struct _PageData: Encodable {
  /// The copy texts of one turn.
  struct Turn: Encodable {
    /// The turn as plain text (Copy and Share): a reply as ``PlainTextRenderer`` reads it, the
    /// person's text as typed.
    var p: String
    /// A reply's markdown as written ("Copy as markdown"); nil for the person's turns.
    var m: String?
    /// The turn's blocks in the conversation's markdown, when they are not ``Words/assistant``, a
    /// blank line and `m`.
    var c: String?
  }

  /// The words the script writes, in the page's language.
  struct Words: Encodable {
    var copied: String
    /// The line before a reply in the conversation's markdown (`**Assistant**`).
    var assistant: String
  }

  /// The format of the block, for readers of saved pages.
  var version = 2
  var words: Words
  /// The name "Download .md" saves under.
  var file: String
  /// The conversation's day headings (markdown), each with the index of the turn it precedes.
  var days: [Day]
  /// One entry per turn, in thread order.
  var turns: [Turn]
  /// The code of every code block of the page, as written in its reply, by the `data-code` of its
  /// Copy button: what Copy on a code block copies (the code element shows control characters
  /// as symbols).
  var code: [String]

  /// A day heading of the conversation's markdown.
  struct Day: Encodable {
    var i: Int
    var h: String
  }

  /// The JSON, safe inside a script data block: `<` is escaped, and so is every character the
  /// page shows as a stand-in (``_HTMLEscape/withoutControls(_:)``: DEL, the C1 controls, the
  /// bidirectional controls and the noncharacters; JSON escapes only the C0 controls), so the
  /// page's pass over its whole text leaves the block alone and Copy and Download keep them.
  func scriptText() -> String {
    let encoder = JSONEncoder()
    // Sorted keys: the same thread gives the same page, whatever order the encoder keeps its keys in.
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    // Strings, arrays and optionals always encode.
    let data = (try? encoder.encode(self)) ?? Data("{\"version\":2,\"turns\":[]}".utf8)
    var output: [UInt8] = []
    output.reserveCapacity(data.count + 64)
    data.withUnsafeBytes { raw in
      let bytes = raw.assumingMemoryBound(to: UInt8.self)
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "<") {
          output.append(contentsOf: #"\u003c"#.utf8)
          index += 1
        } else if byte >= 0x7F, _HTMLEscape.isForbidden(bytes, at: index) {
          let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
          let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]), as: UTF8.self)
          for unit in text.utf16 { output.append(contentsOf: Self.escape(unit).utf8) }
          index += length
        } else {
          output.append(byte)
          index += 1
        }
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// `\u` and the four hex digits of a UTF-16 code unit.
  private static func escape(_ unit: UInt16) -> String {
    let digits = String(unit, radix: 16)
    return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
  }
}
