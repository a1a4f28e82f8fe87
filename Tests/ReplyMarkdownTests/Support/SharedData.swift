import Foundation
import Testing

/// Locates the project's `Corpus/` and the read-only `../shared` data beside the checkout.
enum SharedData {
  /// The repository root (three levels above this file).
  static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// `../shared`, or nil when it is absent.
  static let sharedRoot: URL? = {
    let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")
    if FileManager.default.fileExists(atPath: url.appendingPathComponent("corpus").path) { return url }
    return nil
  }()

  /// Whether `../shared` is there: the condition of every test that needs it, so that without it
  /// they show as skipped (with ``absent`` as the reason) instead of passing on nothing.
  static var isPresent: Bool { sharedRoot != nil }

  /// The reason a test that needs `../shared` is skipped.
  static let absent: Comment =
    "needs ../shared (the spec examples, pathological cases and plain-text examples), which is absent"

  /// One example of the spec-style JSON files in `../shared/corpus`.
  struct SpecExample: Decodable, Sendable {
    let section: String?
    let example: Int
    let markdown: String
    let html: String
    let extensions: [String]
    let options: [String]
  }

  static let specFiles = [
    "commonmark-spec.json", "gfm-spec.json", "gfm-extensions.json", "regression.json", "smart-punct.json",
    "gfm-options.json",
  ]

  /// Every spec example, tagged with its file name.
  static func specExamples() throws -> [(file: String, example: SpecExample)] {
    guard let shared = sharedRoot else { return [] }
    var all: [(String, SpecExample)] = []
    for file in specFiles {
      let data = try Data(contentsOf: shared.appendingPathComponent("corpus").appendingPathComponent(file))
      for example in try JSONDecoder().decode([SpecExample].self, from: data) { all.append((file, example)) }
    }
    return all
  }

  /// The replies of `Corpus/replies/` as (name, markdown), sorted by name.
  static func corpusReplies() throws -> [(name: String, markdown: String)] {
    let folder = repositoryRoot.appendingPathComponent("Corpus/replies")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".md") }.sorted()
    return try names.map { ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
  }
}
