import Foundation

/// The data block of the page: for every reply, the plain text that Copy and Share put on the
/// clipboard. (Copy on a code block takes the code element's text, which is the code itself.)
///
/// Written as JSON inside `<script type="application/json">`, which browsers never run; every `<`
/// is written as `\u003c`, so no text can close the element or open a comment.
struct _PageData: Encodable {
  /// The copy text of one reply.
  struct Turn: Encodable {
    /// The reply as plain text (Copy and Share).
    var plain: String
  }

  /// The format of the block, for readers of saved pages.
  var version = 1
  /// One entry per turn, in thread order; `nil` for the person's turns, which have no actions.
  var turns: [Turn?]

  /// The JSON, safe inside a script data block.
  func scriptText() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    // Strings, arrays and optionals always encode.
    let data = (try? encoder.encode(self)) ?? Data("{\"version\":1,\"turns\":[]}".utf8)
    var output: [UInt8] = []
    output.reserveCapacity(data.count + 64)
    data.withUnsafeBytes { raw in
      for byte in raw {
        if byte == UInt8(ascii: "<") {
          output.append(contentsOf: #"\u003c"#.utf8)
        } else {
          output.append(byte)
        }
      }
    }
    return String(decoding: output, as: UTF8.self)
  }
}
