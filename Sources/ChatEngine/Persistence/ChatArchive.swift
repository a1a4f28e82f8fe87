import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Saves and loads a thread as JSON that other tools can write too.
///
/// The shape: `{"messages": [{"id": "UUID", "role": "user"|"assistant", "text": "...",
/// "date": "ISO 8601 with offset", "state": "complete"|"streaming"|"stopped"|"failed",
/// "error": "only when failed", "feedback": "good"|"bad"|null}]}`. Dates are written with
/// milliseconds and the offset of the given time zone (`2026-03-01T09:30:00.000+01:00`) and read
/// with or without fractional seconds, years 0001–9999 of the proleptic Gregorian calendar.
/// Loading normalises (``ChatThreadTree/normalized()``: a streaming reply, in any version, is
/// failed).
///
/// Versions: `messages` is the shown path, so a reader that knows nothing of versions reads the
/// conversation as shown. A thread whose turns have other versions adds a top-level `versions`
/// array, one entry per version that does not show: `{"parent": "UUID" | null, "version": N,
/// "messages": [...]}`, the turn it follows (`null`: a first turn), its number among the versions
/// after that turn (from 1), and the version with the turns shown after it on its branch. The
/// version that shows after a turn is the message right after it and has the number no entry
/// has. An entry's parent is a message of `messages` or of an earlier entry. A file without
/// `versions` is a thread without versions, read as it always was; a thread without versions is
/// written without it.
///
/// Nothing in a file is lost in silence: fields ReplyKit does not read are kept (the top level's
/// in ``Document/fields``, a message's in ``ChatMessage/archiveFields``) and written back on save;
/// a file with two messages of the same id, a duplicate key, or JSON that does not parse is an
/// error naming the place (`messages[4].id`, line and column).
public enum ChatArchive {
  /// A whole thread file: its messages, every version, and the top-level fields ReplyKit does
  /// not read.
  public struct Document: Sendable, Hashable {
    /// The thread with every version, normalised.
    public var tree: ChatThreadTree
    /// Top-level fields other than `messages` and `versions`, written back by ``encode(_:timeZone:)``.
    public var fields: ChatArchiveFields

    /// The shown path, oldest first. Setting it replaces the tree with a thread without versions.
    public var messages: [ChatMessage] {
      get { tree.messages }
      set { tree = ChatThreadTree(messages: newValue) }
    }

    /// Creates a document of a thread without versions.
    public init(messages: [ChatMessage], fields: ChatArchiveFields = ChatArchiveFields()) {
      self.init(tree: ChatThreadTree(messages: messages), fields: fields)
    }

    /// Creates a document of a thread with every version in `tree`.
    public init(tree: ChatThreadTree, fields: ChatArchiveFields = ChatArchiveFields()) {
      self.tree = tree
      self.fields = fields
    }
  }

  /// Encodes `messages` in the archive shape, dates in `timeZone`.
  public static func encode(_ messages: [ChatMessage], timeZone: TimeZone = .current) -> Data {
    encode(Document(messages: messages), timeZone: timeZone)
  }

  /// Encodes a document in the archive shape (pretty-printed, keys sorted), dates in `timeZone`.
  ///
  /// - Complexity: O(n) in the size of the thread.
  public static func encode(_ document: Document, timeZone: TimeZone = .current) -> Data {
    func value(_ message: ChatMessage) -> _JSONValue {
      _ArchiveMessage.value(message, date: _InternetDate.format(message.date, timeZone: timeZone))
    }
    var members = document.fields.members.filter { !readKeys.contains($0.key) }
    members.append(_JSONMember(key: "messages", value: .array(document.tree.messages.map(value))))
    if let versions = _ArchiveVersions.value(document.tree, message: value) {
      members.append(_JSONMember(key: "versions", value: versions))
    }
    members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    var text = ""
    _JSONValue.object(members).write(to: &text, indent: 0)
    return Data(text.utf8)
  }

  /// Decodes and normalises a thread.
  ///
  /// - Throws: ``ChatArchiveError/invalid(path:problem:)`` naming the first bad place, e.g.
  ///   `messages[3].role: expected "user" or "assistant"`, or for JSON that does not parse
  ///   `messages[2].text: not valid JSON: unterminated string at line 9, column 15`.
  public static func decode(_ data: Data) throws(ChatArchiveError) -> [ChatMessage] {
    try decodeDocument(data).messages
  }

  /// The top-level keys ReplyKit reads.
  static let readKeys: Set<String> = ["messages", "versions"]

  /// Decodes and normalises a thread with every version, keeping the top-level fields ReplyKit
  /// does not read.
  ///
  /// - Throws: as ``decode(_:)``; two messages with the same id are an error naming both places,
  ///   and so is a version whose parent is no earlier message (`versions[2].parent: …`).
  public static func decodeDocument(_ data: Data) throws(ChatArchiveError) -> Document {
    let root: _JSONValue
    do {
      root = try _JSONParser.parse([UInt8](data))
    } catch {
      throw .invalid(
        path: error.path, problem: "not valid JSON: \(error.problem) at line \(error.line), column \(error.column)")
    }
    guard case .object(let members) = root else {
      throw .invalid(path: "", problem: "expected an object")
    }
    guard let list = root["messages"] else { throw .invalid(path: "messages", problem: "missing") }
    guard case .array(let items) = list else {
      throw .invalid(path: "messages", problem: "expected an array")
    }
    var messages: [ChatMessage] = []
    messages.reserveCapacity(items.count)
    var places: [UUID: String] = [:]
    for (index, item) in items.enumerated() {
      let message = try _ArchiveMessage.read(item, path: "messages[\(index)]")
      if let first = places.updateValue("messages[\(index)]", forKey: message.id) {
        throw .invalid(
          path: "messages[\(index)].id",
          problem: "the same id as \(first) (\(message.id.uuidString)); every message needs its own id")
      }
      messages.append(message)
    }
    var branches = _VersionBranches()
    if let versions = root["versions"] {
      branches = try _ArchiveVersions.read(versions, path: &messages, places: &places)
    }
    return Document(
      tree: ChatThreadTree(messages: messages, branches: branches).normalized(),
      fields: ChatArchiveFields(members: members.filter { !readKeys.contains($0.key) }))
  }

  /// Writes `messages` to `url` as a document without top-level fields.
  public static func save(_ messages: [ChatMessage], to url: URL, timeZone: TimeZone = .current)
    throws(ChatArchiveError)
  {
    try save(Document(messages: messages), to: url, timeZone: timeZone)
  }

  /// Writes a document to `url` by the rules every ReplyKit output follows: a regular file is
  /// replaced atomically (a temporary file beside it, flushed to disk and renamed over it, so a
  /// crash or a full disk leaves the old file whole) and keeps its permissions, owner and group;
  /// a new file is created with mode 0600 (a thread is private); a symbolic link is followed and
  /// its target written; a FIFO or character device is written through; a directory is refused.
  public static func save(_ document: Document, to url: URL, timeZone: TimeZone = .current)
    throws(ChatArchiveError)
  {
    do {
      try OutputFile.write([UInt8](encode(document, timeZone: timeZone)), to: url.path, newFileMode: 0o600)
    } catch {
      throw .unwritable(error.reason)
    }
  }

  /// The largest thread file read by default: 256 MiB, the command line's input limit.
  public static let defaultMaxBytes = 256 << 20

  /// Reads and normalises the thread at `url` (see ``loadDocument(from:maxBytes:)``).
  public static func load(from url: URL, maxBytes: Int = defaultMaxBytes) throws(ChatArchiveError) -> [ChatMessage] {
    try loadDocument(from: url, maxBytes: maxBytes).messages
  }

  /// Reads and normalises the thread at `url`, keeping the top-level fields ReplyKit does not read.
  ///
  /// Only a regular file of at most `maxBytes` is read; anything else is ``ChatArchiveError/unreadable(_:)``
  /// saying what it is (a directory, a FIFO or device, a file too large, a link loop, no
  /// permission), without blocking on a FIFO and without reading past the limit.
  public static func loadDocument(from url: URL, maxBytes: Int = defaultMaxBytes) throws(ChatArchiveError)
    -> Document
  {
    try decodeDocument(Data(readRegularFile(url.path, maxBytes: maxBytes)))
  }

  /// The bytes of the regular file at `path`, at most `maxBytes` of them.
  private static func readRegularFile(_ path: String, maxBytes: Int) throws(ChatArchiveError) -> [UInt8] {
    func failure(_ code: Int32) -> ChatArchiveError {
      .unreadable("'\(path)': \(String(cString: strerror(code)))")
    }
    // What the path is, before opening it: opening a device can act (rewind a tape, arm a
    // watchdog), and opening a FIFO can wait for a writer.
    var before = stat()
    guard stat(path, &before) == 0 else { throw failure(errno) }
    switch before.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw .unreadable("'\(path)' is a directory, not a thread file")
    default: throw .unreadable("'\(path)' is not a regular file (a FIFO, device or socket)")
    }
    // Non-blocking all the same, and the file opened must be the one looked at.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard descriptor >= 0 else { throw failure(errno) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw failure(errno) }
    guard info.st_mode & S_IFMT == S_IFREG, info.st_dev == before.st_dev, info.st_ino == before.st_ino else {
      throw .unreadable("'\(path)' changed while it was opened; try again")
    }
    guard Int(info.st_size) <= maxBytes else {
      throw .unreadable("'\(path)' is \(info.st_size) bytes; the most a thread file may have is \(maxBytes)")
    }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var count = 0
    while count < bytes.count {
      let read = bytes.withUnsafeMutableBytes { buffer in
        buffer.baseAddress.map { Glibc.read(descriptor, $0 + count, buffer.count - count) } ?? 0
      }
      if read < 0 {
        if errno == EINTR { continue }
        throw failure(errno)
      }
      if read == 0 { break }
      count += read
    }
    // A file that grew while read is read up to its size when opened.
    return Array(bytes[0..<count])
  }
}
