import Foundation
import Testing

/// Locates the project's `Corpus/` and the read-only `../shared` data beside the checkout.
enum SharedData {
  /// The repository root (three levels above this file).
  static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The environment variable that points the tests at another `shared` folder:
  /// `REPLYKIT_SHARED=/nonexistent swift test …` runs them as a checkout without `../shared` would.
  static let overrideVariable = "REPLYKIT_SHARED"

  /// `../shared` (or `$REPLYKIT_SHARED`), or nil (with a printed reason) when it is absent.
  static let sharedRoot: URL? = {
    let url: URL
    if let path = ProcessInfo.processInfo.environment[overrideVariable], !path.isEmpty {
      url = URL(fileURLWithPath: path)
    } else {
      url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }
    if FileManager.default.fileExists(atPath: url.appendingPathComponent("corpus").path) { return url }
    print("note: \(url.path) is absent; tests that need it are skipped or check nothing and say so")
    return nil
  }()

  /// Whether the shared data is there: the condition of `.enabled(if:)` for the tests that read it.
  static var isAvailable: Bool { sharedRoot != nil }

  /// The reason a test that needs the shared data shows when it is skipped.
  static let absenceReason: Comment = "../shared is absent (or $REPLYKIT_SHARED names no shared folder)"

  /// The same, under the names other tests use.
  static var isPresent: Bool { isAvailable }
  static var absent: Comment { absenceReason }

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
