import CUTF8Proc

/// Unicode full case folding (the C and F mappings of CaseFolding.txt), from utf8proc's tables:
/// how cmark-gfm folds a link or footnote label before it compares it with others. `ẞ`, `SS`
/// and `ß` all fold to `ss`, `ς` and `Σ` to `σ`, `ﬀ` to `ff`; lowercasing tells them apart.
///
/// utf8proc's Unicode version may be newer than cmark-gfm's table: it then folds a few more
/// characters, so labels that cmark-gfm tells apart may compare equal here, never the other way
/// round (folding mappings are never withdrawn).
///
/// - Complexity: O(n) in the string's scalars.
/// - Thread safety: a pure function over immutable tables; safe from any thread.
enum UnicodeCaseFold {
  /// `string` case-folded; ASCII letters are lowercased without a table lookup.
  static func fold(_ string: String) -> String {
    var folded = String.UnicodeScalarView()
    // The longest full folding is three scalars (U+0390, U+1FB7 and others).
    var buffer: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
    for scalar in string.unicodeScalars {
      if scalar.isASCII {
        folded.append(Unicode.Scalar(ASCII.lower(UInt8(scalar.value))))
        continue
      }
      var boundary: Int32 = 0
      let count = withUnsafeMutableBytes(of: &buffer) { raw in
        let scalars = raw.bindMemory(to: Int32.self)
        return utf8proc_decompose_char(
          Int32(bitPattern: scalar.value), scalars.baseAddress, scalars.count, UTF8PROC_CASEFOLD, &boundary)
      }
      guard count > 0, count <= 4 else {
        folded.append(scalar)
        continue
      }
      withUnsafeBytes(of: &buffer) { raw in
        for value in raw.bindMemory(to: Int32.self).prefix(count) {
          folded.append(Unicode.Scalar(UInt32(bitPattern: value)) ?? scalar)
        }
      }
    }
    return String(folded)
  }
}
