/// Raw inline HTML and autolinks after a `<`, read as cmark-gfm 0.29.0.gfm.6 reads them (its
/// `scanners.re`: `autolink_uri`, `autolink_email`, then `htmltag`), as far as the text has
/// arrived: complete (where the construct ends), incomplete (the text ends while it may still
/// become one) or text.
///
/// Every construct is matched exactly, not to the first `>`: a comment ends at `-->` and may hold
/// `>`, a processing instruction ends at `?>`, CDATA at `]]>`, a quoted attribute value may hold
/// `>` and `<`; a lowercase `<!doctype` is no declaration, `<!-->` no comment. What the scanner
/// takes for text, it reads on through (so brackets after it count); what it takes for a
/// construct, it steps over (markers inside close nothing). `InlineHealScannerTests` compares
/// every verdict on generated tags with cmark-gfm's parse.
extension InlineHealScanner {
  /// The construct that the `<` at `index` starts.
  ///
  /// - Complexity: O(n) in the bytes up to where it is decided.
  static func htmlOrAutolink(_ bytes: [UInt8], at index: Int, end: Int) -> TagScan {
    let next = index + 1
    guard next < end else { return .incomplete }
    let autolink = Self.autolink(bytes, from: next, end: end)
    // An autolink still arriving has met no `>`, so no tag can be complete before it is decided.
    guard case .literal = autolink else { return autolink }
    return htmlTag(bytes, from: next, end: end)
  }

  /// cmark-gfm's `htmltag` from `start` (after the `<`).
  static func htmlTag(_ bytes: [UInt8], from start: Int, end: Int) -> TagScan {
    guard start < end else { return .incomplete }
    let first = bytes[start]
    if ASCII.isLetter(first) { return openTag(bytes, from: start, end: end) }
    switch first {
    case ASCII.slash: return closingTag(bytes, from: start + 1, end: end)
    case ASCII.question: return processingInstruction(bytes, from: start + 1, end: end)
    case ASCII.exclamation:
      let kind = start + 1
      guard kind < end else { return .incomplete }
      switch bytes[kind] {
      case ASCII.hyphen: return comment(bytes, from: kind, end: end)
      case ASCII.openBracket: return cdata(bytes, from: kind, end: end)
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): return declaration(bytes, from: kind, end: end)
      default: return .literal
      }
    default:
      return .literal
    }
  }

  /// `[ \t\v\f\r\n]`: the blanks between a tag's parts.
  @inline(__always) static func isTagSpace(_ byte: UInt8) -> Bool {
    byte == ASCII.space || (byte >= 0x09 && byte <= 0x0D)
  }

  /// A tag name, attributes (name, optional `=` and value: unquoted, `'…'` or `"…"`), blanks,
  /// an optional `/`, then `>`.
  private static func openTag(_ bytes: [UInt8], from start: Int, end: Int) -> TagScan {
    var index = start
    while index < end && (ASCII.isAlphanumeric(bytes[index]) || bytes[index] == ASCII.hyphen) { index += 1 }
    while true {
      let blanks = index
      while index < end && isTagSpace(bytes[index]) { index += 1 }
      guard index < end else { return .incomplete }
      let byte = bytes[index]
      if byte == ASCII.greaterThan { return .complete(index + 1) }
      if byte == ASCII.slash {
        guard index + 1 < end else { return .incomplete }
        return bytes[index + 1] == ASCII.greaterThan ? .complete(index + 2) : .literal
      }
      // An attribute: after at least one blank, a name.
      guard index > blanks, ASCII.isLetter(byte) || byte == ASCII.underscore || byte == ASCII.colon else {
        return .literal
      }
      index += 1
      while index < end && isAttributeNameByte(bytes[index]) { index += 1 }
      var cursor = index
      while cursor < end && isTagSpace(bytes[cursor]) { cursor += 1 }
      guard cursor < end else { return .incomplete }
      // Without `=`, the blanks read belong to what follows the name.
      guard bytes[cursor] == UInt8(ascii: "=") else { continue }
      cursor += 1
      while cursor < end && isTagSpace(bytes[cursor]) { cursor += 1 }
      guard cursor < end else { return .incomplete }
      let quote = bytes[cursor]
      if quote == ASCII.quote || quote == ASCII.apostrophe {
        cursor += 1
        while cursor < end && bytes[cursor] != quote { cursor += 1 }
        guard cursor < end else { return .incomplete }
        index = cursor + 1
      } else {
        guard isUnquotedValueByte(quote) else { return .literal }
        while cursor < end && isUnquotedValueByte(bytes[cursor]) { cursor += 1 }
        guard cursor < end else { return .incomplete }
        index = cursor
      }
    }
  }

  /// `[a-zA-Z0-9:._-]`, after an attribute name's first byte.
  private static func isAttributeNameByte(_ byte: UInt8) -> Bool {
    ASCII.isAlphanumeric(byte) || byte == ASCII.colon || byte == ASCII.period || byte == ASCII.underscore
      || byte == ASCII.hyphen
  }

  /// An unquoted attribute value's bytes: no blank, quote, `=`, `<`, `>` or backtick.
  private static func isUnquotedValueByte(_ byte: UInt8) -> Bool {
    !isTagSpace(byte) && byte != ASCII.quote && byte != ASCII.apostrophe && byte != UInt8(ascii: "=")
      && byte != ASCII.lessThan && byte != ASCII.greaterThan && byte != ASCII.backtick
  }

  /// After `</`: a tag name, blanks, `>`.
  private static func closingTag(_ bytes: [UInt8], from start: Int, end: Int) -> TagScan {
    guard start < end else { return .incomplete }
    guard ASCII.isLetter(bytes[start]) else { return .literal }
    var index = start + 1
    while index < end && (ASCII.isAlphanumeric(bytes[index]) || bytes[index] == ASCII.hyphen) { index += 1 }
    while index < end && isTagSpace(bytes[index]) { index += 1 }
    guard index < end else { return .incomplete }
    return bytes[index] == ASCII.greaterThan ? .complete(index + 1) : .literal
  }

  /// After `<!` (at the first `-`): `<!---->`, or `<!--`, text that neither starts with `>` or
  /// `->` nor holds `--`, then `-->`.
  private static func comment(_ bytes: [UInt8], from start: Int, end: Int) -> TagScan {
    // `start` holds the first `-`; the second must follow.
    guard start + 1 < end else { return .incomplete }
    guard bytes[start + 1] == ASCII.hyphen else { return .literal }
    var index = start + 2
    // The first character of the text: not `>`, and `-` only before neither `-` nor `>` (but
    // `<!---->` is a comment).
    guard index < end else { return .incomplete }
    if bytes[index] == ASCII.greaterThan { return .literal }
    if bytes[index] == ASCII.hyphen {
      guard index + 1 < end else { return .incomplete }
      switch bytes[index + 1] {
      case ASCII.greaterThan: return .literal
      case ASCII.hyphen:
        guard index + 2 < end else { return .incomplete }
        return bytes[index + 2] == ASCII.greaterThan ? .complete(index + 3) : .literal
      default: index += 2
      }
    } else {
      index += 1
    }
    // The rest: a `-` only before another byte than `-`; `--` only as the end, `-->`.
    while index < end {
      guard bytes[index] == ASCII.hyphen else {
        index += 1
        continue
      }
      guard index + 1 < end else { return .incomplete }
      guard bytes[index + 1] == ASCII.hyphen else {
        index += 2
        continue
      }
      guard index + 2 < end else { return .incomplete }
      return bytes[index + 2] == ASCII.greaterThan ? .complete(index + 3) : .literal
    }
    return .incomplete
  }

  /// After `<?`: text up to the first `?>` that no unit of the text takes: a `?` followed by a
  /// byte other than `>` is one unit (`<?a??>` is text to cmark-gfm).
  private static func processingInstruction(_ bytes: [UInt8], from start: Int, end: Int) -> TagScan {
    var index = start
    while index < end {
      guard bytes[index] == ASCII.question else {
        index += 1
        continue
      }
      guard index + 1 < end else { return .incomplete }
      if bytes[index + 1] == ASCII.greaterThan { return .complete(index + 2) }
      index += 2
    }
    return .incomplete
  }

  /// After `<!` (at the first capital): capitals, at least one blank, anything but `>`, `>`.
  private static func declaration(_ bytes: [UInt8], from start: Int, end: Int) -> TagScan {
    var index = start
    while index < end && bytes[index] >= UInt8(ascii: "A") && bytes[index] <= UInt8(ascii: "Z") { index += 1 }
    guard index < end else { return .incomplete }
    guard isTagSpace(bytes[index]) else { return .literal }
    while index < end && bytes[index] != ASCII.greaterThan { index += 1 }
    return index < end ? .complete(index + 1) : .incomplete
  }

  /// After `<!` (at the `[`): `[CDATA[`, then text up to a `]]>` that no unit of the text takes
  /// (`]]` and a byte other than `>` is one unit: `]]]>` does not end it).
  private static func cdata(_ bytes: [UInt8], from start: Int, end: Int) -> TagScan {
    let available = min(end - start, cdataOpener.count)
    guard bytes[start..<(start + available)].elementsEqual(cdataOpener.prefix(available)) else { return .literal }
    guard available == cdataOpener.count else { return .incomplete }
    var index = start + available
    while index < end {
      guard bytes[index] == ASCII.closeBracket else {
        index += 1
        continue
      }
      guard index + 1 < end else { return .incomplete }
      guard bytes[index + 1] == ASCII.closeBracket else {
        index += 2
        continue
      }
      guard index + 2 < end else { return .incomplete }
      if bytes[index + 2] == ASCII.greaterThan { return .complete(index + 3) }
      index += 3
    }
    return .incomplete
  }

  static let cdataOpener: [UInt8] = Array("[CDATA[".utf8)

  /// An autolink from `start` (after `<`): a URI (a scheme of a letter and 1 to 31 letters,
  /// digits, `+`, `.` or `-`, then `:` and no control, blank, `<` or `>` up to `>`), or an e-mail
  /// address (a local part, `@`, dot-separated labels of 1 to 63 letters, digits and inner
  /// hyphens, `>`).
  static func autolink(_ bytes: [UInt8], from start: Int, end: Int) -> TagScan {
    let uri = uriAutolink(bytes, from: start, end: end)
    guard case .literal = uri else { return uri }
    return emailAutolink(bytes, from: start, end: end)
  }

  private static func uriAutolink(_ bytes: [UInt8], from start: Int, end: Int) -> TagScan {
    guard start < end else { return .incomplete }
    guard ASCII.isLetter(bytes[start]) else { return .literal }
    var index = start + 1
    while index < end && index - start < 32 && isSchemeByte(bytes[index]) { index += 1 }
    guard index < end else { return .incomplete }
    guard bytes[index] == ASCII.colon, index - start >= 2 else { return .literal }
    index += 1
    while index < end {
      let byte = bytes[index]
      if byte == ASCII.greaterThan { return .complete(index + 1) }
      if byte <= ASCII.space || byte == ASCII.lessThan { return .literal }
      index += 1
    }
    return .incomplete
  }

  private static func isSchemeByte(_ byte: UInt8) -> Bool {
    ASCII.isAlphanumeric(byte) || byte == ASCII.plus || byte == ASCII.period || byte == ASCII.hyphen
  }

  private static func emailAutolink(_ bytes: [UInt8], from start: Int, end: Int) -> TagScan {
    var index = start
    while index < end && (ASCII.isAlphanumeric(bytes[index]) || emailLocalBytes.contains(bytes[index])) { index += 1 }
    guard index < end else { return .incomplete }
    guard bytes[index] == UInt8(ascii: "@"), index > start else { return .literal }
    index += 1
    // Labels: alphanumeric at both ends, hyphens inside, at most 63 bytes; dots between.
    while true {
      let label = index
      while index < end && (ASCII.isAlphanumeric(bytes[index]) || bytes[index] == ASCII.hyphen) { index += 1 }
      guard index < end else {
        return index == label || (index - label <= 63 && bytes[label] != ASCII.hyphen) ? .incomplete : .literal
      }
      guard index > label, index - label <= 63, bytes[label] != ASCII.hyphen, bytes[index - 1] != ASCII.hyphen else {
        return .literal
      }
      if bytes[index] == ASCII.greaterThan { return .complete(index + 1) }
      guard bytes[index] == ASCII.period else { return .literal }
      index += 1
    }
  }

  /// The punctuation an e-mail autolink's local part may hold (besides letters and digits).
  static let emailLocalBytes: Set<UInt8> = Set(".!#$%&'*+/=?^_`{|}~-".utf8)
}
