/// One insertion the guard makes into the input, before the byte at `offset`.
struct GuardEdit: Equatable {
  /// What is inserted.
  enum Insertion: UInt8 {
    /// A backslash: the next punctuation character becomes literal text.
    case backslash
    /// A line break (at a line start: a blank line): ends a paragraph or a table. Written `\r`
    /// after a line that ends in a bare `\r`, else `\n`.
    case newline
    /// U+2060 WORD JOINER: invisible, but ends the run of letters an e-mail autolink scans.
    case wordJoiner

    var bytes: [UInt8] {
      switch self {
      case .backslash: return [ASCII.backslash]
      case .newline: return [ASCII.newline]
      case .wordJoiner: return [0xE2, 0x81, 0xA0]
      }
    }
  }

  let offset: Int
  let insertion: Insertion
}

extension GuardEdit {
  /// Stretches of unchanged text at least this long are copied as substrings of the input;
  /// shorter ones, between edits close together, are gathered as bytes with the insertions.
  static let longStretch = 32

  /// `text` with `edits` (in offset order, each at a scalar boundary) inserted.
  ///
  /// Long unchanged stretches are appended to the result as substrings of `text`, which copies
  /// them without decoding them again; only the bytes around edits close together are decoded.
  ///
  /// - Complexity: O(n + e) for n bytes and e edits.
  static func applying(_ edits: [GuardEdit], to text: String) -> String {
    let result = text.utf8.withContiguousStorageIfAvailable { bytes in
      applying(edits, to: text, bytes: bytes)
    }
    if let result { return result }
    var contiguous = text
    contiguous.makeContiguousUTF8()
    return applying(edits, to: contiguous)
  }

  private static func applying(_ edits: [GuardEdit], to text: String, bytes: UnsafeBufferPointer<UInt8>) -> String {
    let utf8 = text.utf8
    var out = ""
    out.reserveCapacity(bytes.count + 3 * edits.count)
    // Bytes not yet in `out`: short stretches and insertions, decoded together when a long
    // stretch (or the end) comes.
    var gathered: [UInt8] = []
    func flush() {
      guard !gathered.isEmpty else { return }
      out += String(decoding: gathered, as: UTF8.self)
      gathered.removeAll(keepingCapacity: true)
    }
    func copy(from start: Int, to end: Int) {
      if end - start >= longStretch {
        flush()
        let from = utf8.index(utf8.startIndex, offsetBy: start)
        let to = utf8.index(from, offsetBy: end - start)
        out.append(contentsOf: text[from..<to])
      } else {
        for index in start..<end { gathered.append(bytes[index]) }
      }
    }
    var position = 0
    for edit in edits {
      copy(from: position, to: edit.offset)
      switch edit.insertion {
      case .backslash: gathered.append(ASCII.backslash)
      // After a bare `\r` line end a `\n` would join it into one `\r\n`, ending no paragraph or
      // table (a review: past the cell limit a table of `\r` lines went on): the break is `\r`.
      case .newline:
        let afterCarriageReturn = edit.offset > 0 && bytes[edit.offset - 1] == ASCII.carriageReturn
        gathered.append(afterCarriageReturn ? ASCII.carriageReturn : ASCII.newline)
      case .wordJoiner: gathered.append(contentsOf: edit.insertion.bytes)
      }
      position = edit.offset
    }
    copy(from: position, to: bytes.count)
    flush()
    return out
  }
}
