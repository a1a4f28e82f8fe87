import CUTF8Proc

/// The number of terminal columns text takes, from utf8proc's Unicode tables.
///
/// Widths are per grapheme cluster: East Asian wide and fullwidth characters and emoji take two
/// columns; a cluster of an emoji with an emoji presentation selector (U+FE0F; after a space or a
/// letter the selector changes nothing), a flag (a pair of regional
/// indicators), a skin tone or a ZWJ sequence takes two; combining marks and other zero-width
/// characters add nothing to the cluster they join. Ambiguous-width characters count as one column.
///
/// - Complexity: O(n) in the UTF-8 length, with a fast path for ASCII.
/// - Thread safety: pure functions over immutable tables; safe from any thread.
/// - Bad input: control characters count as zero columns (renderers replace them before measuring).
public enum DisplayWidth {
  /// The display width of a string: the sum of the widths of its grapheme clusters.
  public static func of(_ string: String) -> Int {
    var string = string
    return string.withUTF8 { of(utf8: $0) }
  }

  /// The display width of UTF-8 text (which must be valid UTF-8).
  public static func of(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var scanner = GraphemeScanner(bytes)
    var total = 0
    while let cluster = scanner.next() { total += cluster.width }
    return total
  }

  /// The width of one Unicode scalar on its own: 0, 1 or 2.
  public static func of(scalar: Unicode.Scalar) -> Int {
    scalarWidth(scalar.value)
  }

  /// Whether a scalar is East Asian wide or fullwidth (two columns on its own).
  public static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    scalarWidth(scalar.value) == 2
  }

  @inline(__always)
  static func scalarWidth(_ value: UInt32) -> Int {
    if value >= 0x20 && value < 0x7F { return 1 }
    let width = Int(utf8proc_charwidth(Int32(bitPattern: value)))
    return width < 0 ? 0 : (width > 2 ? 2 : width)
  }
}
