import Foundation
import ReplyMarkdown

/// One case of `corpus/pathological.json`: a generator for an input that is slow or explosive in
/// cmark-gfm 0.29.0.gfm.6, and what the C library measured on it.
public struct PathologicalCase: Decodable, Sendable {
  /// The case's name, unique in the file.
  public let name: String
  /// Extension names the case was measured with (`footnotes` is the footnotes option).
  public let extensions: [String]
  /// Option names (`smart`).
  public let options: [String]
  /// The C library's renderer that was timed: `html`, `commonmark` or `plaintext`.
  public let render: String
  /// The segments whose concatenation is the input.
  public let generator: [Segment]
  /// The C library's measurement.
  public let measured: Measurement

  /// The C library's measurement on this machine (`/usr/bin/cmark-gfm`, 20 s cap).
  public struct Measurement: Decodable, Sendable {
    /// Input size in bytes.
    public let input_bytes: Int
    /// Wall time in seconds (20 when it hit the cap).
    public let seconds: Double
    /// Output size, when it finished.
    public let output_bytes: Int?
    /// Whether it took over a second.
    public let over_1s: Bool
  }

  /// One generator segment; exactly one field is set.
  public struct Segment: Decodable, Sendable {
    let literal: String?
    let `repeat`: String?
    let count: Int?
    let ramp: Ramp?
    let numbered: Numbered?
    let hash_collisions: HashCollisions?
  }

  struct Ramp: Decodable, Sendable {
    let prefix: String
    let unit: String
    let suffix: String
    let from: Int
    let to: Int
  }

  struct Numbered: Decodable, Sendable {
    let format: String
    let from: Int
    let to: Int
  }

  struct HashCollisions: Decodable, Sendable {
    let key_format: String
    let refmap_size: Int
    let count: Int
    let definition: String
    let reference: String
  }

  struct File: Decodable {
    let cases: [PathologicalCase]
  }

  /// Reads the cases of a `pathological.json`.
  public static func load(from url: URL) throws -> [PathologicalCase] {
    try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).cases
  }

  /// Whether the case asks for smart punctuation.
  public var isSmart: Bool { options.contains("smart") }

  /// The parse options ReplyKit uses for the case: GitHub's, plus smart punctuation when asked.
  public var parseOptions: ParseOptions { isSmart ? [.github, .smartPunctuation] : .github }

  /// The generated input, at full size.
  public func generate() -> String {
    var out = ""
    out.reserveCapacity(measured.input_bytes)
    for segment in generator {
      if let literal = segment.literal {
        out += literal
      } else if let unit = segment.repeat, let count = segment.count {
        out += String(repeating: unit, count: count)
      } else if let ramp = segment.ramp {
        for k in ramp.from..<ramp.to { out += ramp.prefix + String(repeating: ramp.unit, count: k) + ramp.suffix }
      } else if let numbered = segment.numbered {
        let (head, tail) = Self.split(numbered.format, at: "{n}")
        for n in numbered.from..<numbered.to { out += head + String(n) + tail }
      } else if let collisions = segment.hash_collisions {
        var keys: [String] = []
        var index = 0
        let (keyHead, keyTail) = Self.split(collisions.key_format, at: "{n}")
        while keys.count < collisions.count {
          let key = keyHead + String(index) + keyTail
          index += 1
          if Self.referenceHash(key) % UInt32(collisions.refmap_size) == 0 { keys.append(key) }
        }
        let (definitionHead, definitionTail) = Self.split(collisions.definition, at: "{key}")
        let reference = collisions.reference.replacingOccurrences(of: "{bad}", with: keys[0])
        for key in keys.dropFirst() { out += definitionHead + key + definitionTail + reference }
      }
    }
    return out
  }

  /// The text before and after the first `placeholder` (all of it before, when there is none).
  static func split(_ format: String, at placeholder: String) -> (String, String) {
    guard let range = format.range(of: placeholder) else { return (format, "") }
    return (String(format[..<range.lowerBound]), String(format[range.upperBound...]))
  }

  /// cmark's old reference-map hash.
  static func referenceHash(_ key: String) -> UInt32 {
    var hash: UInt32 = 0
    for byte in key.utf8 { hash = UInt32(byte) &+ (hash << 6) &+ (hash << 16) &- hash }
    return hash
  }
}
