import CCmarkGFM
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one lock around cmark-gfm's parser: inline parsing edits a process-global table of special
/// characters, so two parses at once silently lose strikethrough nodes.
let cmarkParserLock = Mutex(())

/// A C pointer carried across the lock; only the calling thread ever uses it.
struct CHandle: @unchecked Sendable {
  let pointer: OpaquePointer?
}

/// Everything that talks to cmark-gfm's C API.
enum CmarkBridge {
  /// The extension node types, read once after the core extensions are registered.
  struct ExtensionTypes: Sendable {
    let table: cmark_node_type
    let tableRow: cmark_node_type
    let tableCell: cmark_node_type
    let strikethrough: cmark_node_type
  }

  static let extensionTypes: ExtensionTypes = cmarkParserLock.withLock { _ in
    cmark_gfm_core_extensions_ensure_registered()
    return ExtensionTypes(
      table: replykit_node_type_table(),
      tableRow: replykit_node_type_table_row(),
      tableCell: replykit_node_type_table_cell(),
      strikethrough: replykit_node_type_strikethrough())
  }

  /// The cmark parse options for our options.
  static func cmarkOptions(_ options: ParseOptions) -> Int32 {
    var bits: Int32 = 0
    if options.contains(.footnotes) { bits |= CMARK_OPT_FOOTNOTES }
    if options.contains(.smartPunctuation) { bits |= CMARK_OPT_SMART }
    if options.contains(.strikethroughDoubleTilde) { bits |= CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE }
    if options.contains(.liberalHTMLTags) { bits |= CMARK_OPT_LIBERAL_HTML_TAG }
    return bits
  }

  static let extensionNames: [(ParseOptions, String)] = [
    (.tables, "table"), (.strikethrough, "strikethrough"), (.autolinks, "autolink"),
    (.tagFilter, "tagfilter"), (.taskLists, "tasklist"),
  ]

  /// The core extensions by option, looked up once (the registry never changes after
  /// registration; a lookup per parse made a C string of each name every time). First read it
  /// outside `cmarkParserLock`: its initializer takes the lock.
  static let extensions: [(option: ParseOptions, handle: CHandle)] = {
    _ = extensionTypes
    return cmarkParserLock.withLock { _ in
      extensionNames.compactMap { option, name in
        cmark_find_syntax_extension(name).map { (option, CHandle(pointer: $0)) }
      }
    }
  }()

  /// Parses `markdown`, calls `body` with the document root and the parser, and frees both.
  ///
  /// Only feed and finish run under the lock; `body` runs outside it on a tree nobody else sees.
  static func withParsedTree<R>(
    _ markdown: String, options: ParseOptions, extraCmarkOptions: Int32 = 0,
    _ body: (OpaquePointer, OpaquePointer) -> R
  ) -> R {
    _ = extensionTypes
    let cmarkOpts = cmarkOptions(options) | extraCmarkOptions
    guard let parser = cmark_parser_new(cmarkOpts) else { fatalError("cmark-gfm could not allocate a parser") }
    defer { cmark_parser_free(parser) }
    for (option, name) in extensionNames where options.contains(option) {
      if let ext = cmark_find_syntax_extension(name) {
        cmark_parser_attach_syntax_extension(parser, ext)
      }
    }
    var text = markdown
    let handle = CHandle(pointer: parser)
    let root = cmarkParserLock.withLock { _ in
      text.withUTF8 { buffer in
        if let base = buffer.baseAddress {
          base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
            cmark_parser_feed(handle.pointer, $0, buffer.count)
          }
        }
      }
      return CHandle(pointer: cmark_parser_finish(handle.pointer))
    }.pointer
    guard let root else { fatalError("cmark-gfm could not allocate a document") }
    defer { cmark_node_free(root) }
    return body(root, parser)
  }

  /// Parses `markdown` into our flat node list.
  ///
  /// The parse allocates from ``ParseArena``; parse, conversion and the arena's release all run
  /// under the lock, and the C tree is never freed node by node.
  static func parse(_ markdown: String, options: ParseOptions) -> [MarkdownNode] {
    let types = extensionTypes
    // Read before the lock: the first read looks the extensions up under it.
    let extensions = extensions
    var text = markdown
    return cmarkParserLock.withLock { _ in
      defer { ParseArena.releaseAll() }
      guard let parser = cmark_parser_new_with_mem(cmarkOptions(options), ParseArena.allocator) else { return [] }
      for (option, handle) in extensions where options.contains(option) {
        cmark_parser_attach_syntax_extension(parser, handle.pointer)
      }
      text.withUTF8 { buffer in
        if let base = buffer.baseAddress {
          base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { cmark_parser_feed(parser, $0, buffer.count) }
        }
      }
      guard let root = cmark_parser_finish(parser) else { return [] }
      return TreeConverter(types: types, source: markdown).convert(root)
    }
  }

  /// Renders `markdown` with cmark-gfm's own HTML renderer (the reference our renderer must equal).
  static func referenceHTML(_ markdown: String, options: ParseOptions, renderOptions: Int32) -> String {
    withParsedTree(markdown, options: options, extraCmarkOptions: renderOptions) { root, parser in
      let extensions = cmark_parser_get_syntax_extensions(parser)
      guard let html = cmark_render_html(root, cmarkOptions(options) | renderOptions, extensions) else { return "" }
      defer { free(html) }
      return String(cString: html)
    }
  }
}
