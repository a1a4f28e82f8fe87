import CCmarkGFM

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What cmark-gfm knows about footnotes but keeps in private fields: which reference to a note a
/// reference is (`ref_ix`) and how many references a note has (`def_count`).
///
/// Both count references in the tree as it was before cmark-gfm moved the definitions to the end
/// and dropped the unreferenced ones — references inside a dropped definition count too — so they
/// cannot be recomputed from the final tree. They are read from cmark-gfm's own HTML of the one
/// node instead: small renders, only for documents that have footnotes, made while the parse's
/// arena and lock are held.
struct FootnoteFacts {
  /// Per reference, in tree order: the `id` cmark-gfm gives it, after `fnref-`.
  var referenceIDs: [String] = []
  /// Per definition, in tree order: how many back-references cmark-gfm writes for it.
  var definitionReferenceCounts: [Int] = []

  /// The `id` of a reference's link in cmark-gfm's HTML, without its `fnref-` prefix.
  static func renderedReferenceID(_ node: OpaquePointer) -> String {
    guard let html = cmark_render_html(node, 0, nil) else { return "" }
    let bytes = UnsafeBufferPointer(
      start: UnsafeRawPointer(html).assumingMemoryBound(to: UInt8.self), count: strlen(html))
    let marker = Array(" id=\"fnref-".utf8)
    guard let start = firstIndex(of: marker, in: bytes) else { return "" }
    var end = start + marker.count
    while end < bytes.count && bytes[end] != UInt8(ascii: "\"") { end += 1 }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + marker.count)..<end]), as: UTF8.self)
  }

  /// How many back-references cmark-gfm's HTML of a definition has (its `def_count`, at least 1).
  ///
  /// The definition's content is detached while it is rendered (and put back in order after):
  /// cmark-gfm writes the back-references where the definition ends when no last paragraph takes
  /// them, so the count is the same and the render costs the same for a long note as for a short one.
  static func renderedBackreferenceCount(_ node: OpaquePointer) -> Int {
    var content: [OpaquePointer] = []
    while let child = cmark_node_first_child(node) {
      content.append(child)
      cmark_node_unlink(child)
    }
    defer { for child in content { cmark_node_append_child(node, child) } }
    guard let html = cmark_render_html(node, 0, nil) else { return 1 }
    // Only the renderer writes this attribute sequence: text from the note itself is escaped, and
    // its links carry no class.
    let marker = Array("\" class=\"footnote-backref\" data-footnote-backref aria-label=".utf8)
    var count = 0
    var bytes = UnsafeBufferPointer(
      start: UnsafeRawPointer(html).assumingMemoryBound(to: UInt8.self), count: strlen(html))
    while let found = firstIndex(of: marker, in: bytes) {
      count += 1
      bytes = UnsafeBufferPointer(rebasing: bytes[(found + marker.count)...])
    }
    return max(count, 1)
  }

  /// The offset of the first occurrence of `marker` in `bytes`.
  private static func firstIndex(of marker: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let first = marker.first, bytes.count >= marker.count else { return nil }
    var position = 0
    while position + marker.count <= bytes.count {
      if bytes[position] == first && bytes[position..<(position + marker.count)].elementsEqual(marker) {
        return position
      }
      position += 1
    }
    return nil
  }

  /// Which reference to its note a reference is, from its rendered id and the note's label:
  /// `label` is the first, `label-N` the N-th.
  static func occurrence(in id: String, label: String) -> Int {
    var writer = ByteWriter(capacity: label.utf8.count * 3 + 8)
    writer.writeHrefEscaped(label)
    let escaped = writer.string()
    guard id.hasPrefix(escaped) else { return 1 }
    let rest = id.dropFirst(escaped.count)
    guard rest.first == "-", let number = Int(rest.dropFirst()), number >= 1 else { return 1 }
    return number
  }
}
