import Foundation

/// Golden files of highlighted output under `Corpus/golden/`: compared byte for byte, rewritten
/// only when `REPLYKIT_REGENERATE_GOLDENS=1` is set (`make goldens`), so changes show in the diff.
enum HighlightGoldenFile {
  /// The repository root (three levels above this file's folder).
  static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static var regenerating: Bool { ProcessInfo.processInfo.environment["REPLYKIT_REGENERATE_GOLDENS"] == "1" }

  /// The text of `Corpus/replies/<name>`.
  static func reply(_ name: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent("Corpus/replies/\(name)"), encoding: .utf8)
  }

  /// The golden file at `Corpus/golden/<relativePath>`, or nil when it is missing.
  static func expected(_ relativePath: String) -> String? {
    try? String(contentsOf: url(relativePath), encoding: .utf8)
  }

  /// Compares `actual` with `Corpus/golden/<relativePath>`; a problem description, or nil when
  /// they match (or the file was just rewritten).
  static func check(_ actual: String, against relativePath: String) -> String? {
    let url = url(relativePath)
    if regenerating {
      do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(actual.utf8).write(to: url)
      } catch {
        return "could not write \(relativePath): \(error)"
      }
      return nil
    }
    guard let expected = expected(relativePath) else {
      return "missing golden file Corpus/golden/\(relativePath); run 'make goldens' and review the diff"
    }
    return expected == actual ? nil : "Corpus/golden/\(relativePath) differs; run 'make goldens' and review the diff"
  }

  private static func url(_ relativePath: String) -> URL {
    repositoryRoot.appendingPathComponent("Corpus/golden").appendingPathComponent(relativePath)
  }
}
