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
  /// The object `data` holds, or `nil`.
  static func object(_ data: String) -> [String: Any]? {
    guard let parsed = try? JSONSerialization.jsonObject(with: Data(data.utf8), options: [.fragmentsAllowed])
    else { return nil }
    return parsed as? [String: Any]
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
