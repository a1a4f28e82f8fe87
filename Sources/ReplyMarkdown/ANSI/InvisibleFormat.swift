/// Invisible format characters in link text and URLs, which could make what a terminal link shows
/// differ from where it goes: U+200B–U+200D (zero-width space, non-joiner, joiner), U+2060 (word
/// joiner), U+FEFF (zero-width no-break space), U+00AD (soft hyphen), U+200E, U+200F and U+061C
/// (direction marks).
///
/// In link text they are dropped (a joiner between two emoji stays, as it draws one picture); in a
/// shown URL they are percent-encoded (`%E2%80%8B`), so they are visible, and so is every other
/// character Unicode makes default-ignorable or a format character (``isHiddenInURL(_:)``).
package enum InvisibleFormat {
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x200B...0x200F, 0x2060, 0xFEFF, 0x00AD, 0x061C: return true
    default: return false
    }
  }

  /// Whether `text` has any invisible format character (fast path: none).
  ///
  /// - Complexity: O(n) in the UTF-8 length, a byte at a time.
  static func contains(_ text: String) -> Bool {
    text.utf8.withContiguousStorageIfAvailable { contains(utf8: $0) }
      ?? text.unicodeScalars.contains(where: isInvisible)
  }

  /// Whether valid UTF-8 holds any invisible format character: U+00AD is C2 AD, U+061C D8 9C,
  /// U+200B–U+200F E2 80 8B–8F, U+2060 E2 81 A0 and U+FEFF EF BB BF. Only a lead byte of one
  /// of them needs a look at the bytes after it (continuation bytes never equal a lead byte).
  static func contains(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = bytes.count
    var index = 0
    while index < count {
      let byte = bytes[index]
      index += 1
      guard byte >= 0xC2 else { continue }
      let second: UInt8 = index < count ? bytes[index] : 0
      let third: UInt8 = index + 1 < count ? bytes[index + 1] : 0
      switch byte {
      case 0xC2: if second == 0xAD { return true }
      case 0xD8: if second == 0x9C { return true }
      case 0xE2:
        if (second == 0x80 && third >= 0x8B && third <= 0x8F) || (second == 0x81 && third == 0xA0) { return true }
      case 0xEF: if second == 0xBB && third == 0xBF { return true }
      default: break
      }
    }
    return false
  }

  /// `text` without invisible format characters, keeping a joiner that follows an emoji.
  static func droppedFromText(_ text: String) -> String {
    guard contains(text) else { return text }
    var out = String.UnicodeScalarView()
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
      defer { previous = scalar }
      if isInvisible(scalar) {
        let joinsEmoji = scalar.value == 0x200D && (previous.map { $0.properties.isEmoji && $0.value > 0xFF } ?? false)
        if !joinsEmoji { continue }
      }
      out.append(scalar)
    }
    return String(out)
  }

  /// Whether `scalar` hides in a shown URL: one of ``isInvisible(_:)``'s, or another character
  /// Unicode makes default-ignorable or a format character — invisible operators (U+2061–U+2064),
  /// the Mongolian vowel separator, tag characters, Hangul fillers, the combining grapheme joiner,
  /// interlinear annotation marks, variation selectors — which a look-alike address could hold
  /// (a review). Not the bidirectional embedding, override and isolate controls, which the
  /// terminal and the page show as U+FFFD wherever they occur.
  static func isHiddenInURL(_ scalar: Unicode.Scalar) -> Bool {
    guard scalar.value >= 0x80, !(0x202A...0x202E).contains(scalar.value), !(0x2066...0x2069).contains(scalar.value)
    else { return false }
    return isInvisible(scalar) || scalar.properties.isDefaultIgnorableCodePoint
      || scalar.properties.generalCategory == .format
  }

  /// Whether `url` holds a character ``isHiddenInURL(_:)`` (fast path: ASCII holds none).
  static func containsHiddenInURL(_ url: String) -> Bool {
    url.utf8.contains { $0 >= 0x80 } && url.unicodeScalars.contains(where: isHiddenInURL)
  }

  /// `url` with every character ``isHiddenInURL(_:)`` percent-encoded.
  package static func shownInURL(_ url: String) -> String {
    guard containsHiddenInURL(url) else { return url }
    var out = ""
    for scalar in url.unicodeScalars {
      if isHiddenInURL(scalar) {
        for byte in String(scalar).utf8 { out += "%" + String(byte, radix: 16, uppercase: true) }
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
