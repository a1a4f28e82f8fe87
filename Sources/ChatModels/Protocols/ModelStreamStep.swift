import Foundation

/// What one event of a model's stream means.
enum ModelStreamStep: Equatable {
  /// Text of the reply.
  case text(String)
  /// The reply is done.
  case done
  /// Nothing for the reply (a ping, the start of a message, an event type not known).
  case nothing
}

/// Reads one protocol's events.
protocol ModelStreamDecoder {
  /// What `event` means; throws for error events and events that cannot be read.
  mutating func decode(_ event: ServerSentEvent) throws(ModelError) -> ModelStreamStep
  /// Whether a stream that ends now (without its end mark) had still finished its reply.
  var endedCleanly: Bool { get }
  /// Why the model ended its reply early, when it said so (its length limit, a content
  /// filter): the reply then fails with this error, its text kept.
  var cutShort: ModelError? { get }
}

/// JSON helpers shared by the decoders.
enum _JSON {
  /// The object `data` holds, or `nil`. A `\u` escape of half a surrogate pair with no other half
  /// (an emoji split across two events) reads as U+FFFD, as invalid UTF-8 does, instead of
  /// failing the event (and with it the reply).
  static func object(_ data: String) -> [String: Any]? {
    if let parsed = try? JSONSerialization.jsonObject(with: Data(data.utf8), options: [.fragmentsAllowed]) {
      return parsed as? [String: Any]
    }
    guard let repaired = replacingLoneSurrogates(data),
      let parsed = try? JSONSerialization.jsonObject(with: Data(repaired.utf8), options: [.fragmentsAllowed])
    else { return nil }
    return parsed as? [String: Any]
  }

  /// `json` with every `\u` escape of a lone surrogate (one not in a high-low pair) written
  /// `\ufffd`; nil when there is none.
  static func replacingLoneSurrogates(_ json: String) -> String? {
    let bytes = Array(json.utf8)
    /// The value of a `\uXXXX` escape starting at `index`, or nil.
    func escape(at index: Int) -> UInt32? {
      guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
      else { return nil }
      return UInt32(String(decoding: bytes[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16)
    }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var changed = false
    var index = 0
    while index < bytes.count {
      guard bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count else {
        output.append(bytes[index])
        index += 1
        continue
      }
      guard let value = escape(at: index) else {
        // Another escape (`\\`, `\"`, …): both bytes as they are.
        output.append(contentsOf: bytes[index..<(index + 2)])
        index += 2
        continue
      }
      if (0xD800..<0xDC00).contains(value), let low = escape(at: index + 6), (0xDC00..<0xE000).contains(low) {
        output.append(contentsOf: bytes[index..<(index + 12)])
        index += 12
      } else if (0xD800..<0xE000).contains(value) {
        output.append(contentsOf: Array("\\ufffd".utf8))
        changed = true
        index += 6
      } else {
        output.append(contentsOf: bytes[index..<(index + 6)])
        index += 6
      }
    }
    return changed ? String(decoding: output, as: UTF8.self) : nil
  }

  /// The message of an error object: `{"error": {"message": …}}`, `{"error": "…"}` or
  /// `{"message": …}`.
  static func errorMessage(_ object: [String: Any]) -> String? {
    if let error = object["error"] as? [String: Any] {
      let message = error["message"] as? String
      let type = error["type"] as? String ?? error["code"] as? String
      switch (message, type) {
      case (let message?, let type?): return "\(message) (\(type))"
      case (let message?, nil): return message
      case (nil, let type?): return type
      case (nil, nil): return nil
      }
    }
    if let error = object["error"] as? String { return error }
    return object["message"] as? String
  }

  /// A short, printable sample of `data` for a malformed-event message.
  static func sample(_ data: String) -> String {
    let flat = data.replacingOccurrences(of: "\n", with: " ")
    return flat.count > 80 ? "'\(flat.prefix(80))…'" : "'\(flat)'"
  }
}
