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
/// with or without fractional seconds. Loading normalises (``ChatMessage/normalized(_:)``).
public enum ChatArchive {
  /// Encodes `messages` in the archive shape, dates in `timeZone`.
  public static func encode(_ messages: [ChatMessage], timeZone: TimeZone = .current) -> Data {
    let file = _ArchiveFile(
      messages: messages.map { _ArchiveMessage($0, date: _InternetDate.format($0.date, timeZone: timeZone)) })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Encoding strings, optionals and arrays of them cannot fail.
    return (try? encoder.encode(file)) ?? Data("{\"messages\":[]}".utf8)
  }

  /// Decodes and normalises a thread.
  ///
  /// - Throws: ``ChatArchiveError/invalid(path:problem:)`` naming the first bad place, e.g.
  ///   `messages[3].role: expected "user" or "assistant"`.
  public static func decode(_ data: Data) throws(ChatArchiveError) -> [ChatMessage] {
    let file: _ArchiveFile
    do {
      file = try JSONDecoder().decode(_ArchiveFile.self, from: data)
    } catch let error as DecodingError {
      throw describe(error)
    } catch {
      throw .invalid(path: "", problem: "not a thread file (\(error))")
    }
    return ChatMessage.normalized(file.messages.map(\.message))
  }

  /// Writes `messages` to `url` atomically: a temporary file in the same directory is written,
  /// flushed to disk and renamed over `url`, so a crash leaves either the old or the new file.
  public static func save(_ messages: [ChatMessage], to url: URL, timeZone: TimeZone = .current)
    throws(ChatArchiveError)
  {
    let data = encode(messages, timeZone: timeZone)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    do {
      guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
        throw ChatArchiveError.unwritable("cannot create \(temporary.path)")
      }
      let handle = try FileHandle(forWritingTo: temporary)
      defer { try? handle.close() }
      try handle.write(contentsOf: data)
      try handle.synchronize()
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw (error as? ChatArchiveError) ?? .unwritable(error.localizedDescription)
    }
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw .unwritable(reason)
    }
  }

  /// Reads and normalises the thread at `url`.
  public static func load(from url: URL) throws(ChatArchiveError) -> [ChatMessage] {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .unreadable(error.localizedDescription)
    }
    return try decode(data)
  }

  /// Names the place of a decoding error (`messages[3].role`) and says what was expected there.
  static func describe(_ error: DecodingError) -> ChatArchiveError {
    switch error {
    case .keyNotFound(let key, let context):
      return .invalid(path: path(context.codingPath + [key]), problem: "missing")
    case .valueNotFound(let type, let context):
      return .invalid(path: path(context.codingPath), problem: "expected \(jsonName(type)), found null")
    case .typeMismatch(let type, let context):
      return .invalid(path: path(context.codingPath), problem: "expected \(jsonName(type))")
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty {
        return .invalid(path: "", problem: "not valid JSON")
      }
      return .invalid(path: path(context.codingPath), problem: context.debugDescription)
    @unknown default:
      return .invalid(path: "", problem: "not a thread file")
    }
  }

  static func path(_ keys: [any CodingKey]) -> String {
    var text = ""
    for key in keys {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text
  }

  private static func jsonName(_ type: Any.Type) -> String {
    let name = "\(type)"
    if name.hasPrefix("Dictionary") || name.hasPrefix("[String") { return "an object" }
    if name.hasPrefix("Array") || name.hasPrefix("[") { return "an array" }
    if name == "String" { return "a string" }
    if name == "Bool" { return "true or false" }
    return "a number"
  }
}
