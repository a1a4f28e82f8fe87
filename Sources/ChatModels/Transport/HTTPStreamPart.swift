import Foundation

/// A piece of a streamed HTTP response.
enum HTTPStreamPart: Sendable {
  /// The status line and headers (header names lowercased).
  case head(status: Int, headers: [String: String])
  /// Bytes of the body, as they arrived.
  case body(Data)
}
