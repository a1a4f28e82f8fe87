import Foundation

/// Golden files under `Corpus/golden/`: compared byte for byte, rewritten only when
/// `REPLYKIT_REGENERATE_GOLDENS=1` is set (`make goldens`), so changes show up in the diff.
enum GoldenFile {
  static var regenerating: Bool { ProcessInfo.processInfo.environment["REPLYKIT_REGENERATE_GOLDENS"] == "1" }

  /// Compares `actual` with the golden file at `Corpus/golden/<relativePath>`; returns a problem
  /// description, or nil when they match (or the file was just rewritten).
  static func check(_ actual: String, against relativePath: String) -> String? {
    let url = SharedData.repositoryRoot.appendingPathComponent("Corpus/golden").appendingPathComponent(relativePath)
    if regenerating {
      try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      do {
        try Data(actual.utf8).write(to: url)
      } catch {
        return "could not write \(relativePath): \(error)"
      }
      return nil
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
      return "missing golden file Corpus/golden/\(relativePath); run 'make goldens' and review the diff"
    }
    return expected == actual ? nil : "Corpus/golden/\(relativePath) differs; run 'make goldens' and review the diff"
  }
}
