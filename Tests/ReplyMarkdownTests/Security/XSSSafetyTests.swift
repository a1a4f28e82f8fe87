import Foundation
import Testing

@testable import ReplyMarkdown

/// Safe-mode HTML of every XSS vector has no executable content: checked structurally, and by
/// loading all of it in headless Chromium on a page that records any script or handler that runs.
@Suite struct XSSSafetyTests {
  static func render(_ markdown: String) -> String { HTMLRenderer().render(MarkdownDocument(markdown)) }

  @Test func thereAreEnoughVectors() {
    #expect(XSSVectors.all.count >= 60)
    #expect(Set(XSSVectors.all).count == XSSVectors.all.count)
  }

  @Test func safeModeOutputIsStructurallySafe() {
    for vector in XSSVectors.all {
      let html = Self.render(vector)
      let problems = HTMLSafetyInspector.problems(in: html)
      #expect(problems.isEmpty, "\(vector.debugDescription) → \(html.debugDescription): \(problems)")
      #expect(html == CmarkReference.html(vector), "\(vector.debugDescription): differs from cmark-gfm")
    }
  }

  /// The inspector itself must catch the unsafe rendering, or the check above proves nothing.
  @Test func theInspectorCatchesUnsafeOutput() {
    var caught = 0
    for vector in XSSVectors.all {
      let unsafe = HTMLRenderer(options: .unsafe).render(MarkdownDocument(vector))
      if !HTMLSafetyInspector.problems(in: unsafe).isEmpty { caught += 1 }
    }
    #expect(caught >= 45, "the inspector flagged only \(caught) unsafe renderings")
    #expect(!HTMLSafetyInspector.problems(in: "<a href=\"&#106;avascript&colon;x\">").isEmpty)
    #expect(!HTMLSafetyInspector.problems(in: "<img src=\"x\" onerror=\"y\" />").isEmpty)
  }

  @Test(
    .enabled(
      if: XSSSafetyTests.chromiumPath() != nil,
      "needs chromium or chromium-browser (apt-get install -y chromium); the structural check still runs"))
  func nothingRunsInChromium() throws {
    let chromium = try #require(Self.chromiumPath())
    let safe = XSSVectors.all.map(Self.render)
    let ranSafe = try Self.runs(safe, chromium: chromium)
    #expect(ranSafe == false, "a vector ran script in safe-mode output")
    // Control: the unsafe rendering of the same vectors must trip the detector.
    let unsafe = XSSVectors.all.map { HTMLRenderer(options: .unsafe).render(MarkdownDocument($0)) }
    #expect(try Self.runs(unsafe, chromium: chromium) == true, "the Chromium harness did not detect known-bad HTML")
  }

  static func chromiumPath() -> String? {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
      for folder in ["/usr/bin", "/usr/local/bin", "/snap/bin"] {
        let path = folder + "/" + name
        if FileManager.default.isExecutableFile(atPath: path) { return path }
      }
    }
    return nil
  }

  /// Loads the fragments in one page and reports whether any script or handler ran.
  static func runs(_ fragments: [String], chromium: String) throws -> Bool {
    let harness = """
      <!doctype html><html><head><meta charset="utf-8"><script>
      function __hit() { document.documentElement.setAttribute('data-xss', 'ran'); }
      window.alert = window.confirm = window.prompt = window.print = __hit;
      </script></head><body>
      """
    var page = harness
    for (index, fragment) in fragments.enumerated() { page += "<div id=\"v\(index)\">\n\(fragment)</div>\n" }
    page += "<div id=\"end\">end</div></body></html>\n"
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "replykit-xss-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("page.html")
    try page.write(to: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: chromium)
    process.arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--virtual-time-budget=3000",
      "--user-data-dir=\(folder.appendingPathComponent("profile").path)", "--dump-dom", file.absoluteString,
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let dom = String(decoding: data, as: UTF8.self)
    #expect(dom.contains("id=\"end\""), "Chromium did not render the page: \(dom.prefix(200))")
    return dom.contains("data-xss=\"ran\"")
  }
}
