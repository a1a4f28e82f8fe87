import Foundation

/// Threads for the export tests, written as the archive JSON a user would save.
enum ExportFixtures {
  /// The repository root (for `.build/export-screens`).
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A fresh directory for one test's files.
  static func directory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("replykit-export-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static let swiftCode = """
    func load() async throws -> Data {
      try await withCheckedThrowingContinuation { continuation in
        fetch { result in continuation.resume(with: result) }   // <T> & "quotes"
      }
    }
    """

  static let longLine =
    "let sentence = \"" + String(repeating: "a very long line that must scroll sideways rather than wrap ", count: 4)
    + "\""

  /// The first reply's markdown: bold, a list, inline code and a Swift code block.
  static let firstReply = """
    Wrap the callback in **withCheckedThrowingContinuation**:

    ```swift
    \(swiftCode)
    ```

    - Resume *exactly* once
    - Use `withCheckedContinuation` when it cannot fail
    """

  /// Seven turns over three days (an old date, yesterday, today as of `now`): complete, stopped
  /// and failed replies, a rated reply, and a code block with one very long line.
  static func conversation(now: Date = Date()) -> String {
    let old = "2024-02-29T12:00:00.000Z"
    let yesterday = iso(now.addingTimeInterval(-86_400))
    let today = iso(now.addingTimeInterval(5))
    let turns: [(String, String, String, String, String?, String?)] = [
      ("user", "How do I turn a completion handler into async/await in Swift?", old, "complete", nil, nil),
      ("assistant", firstReply, old, "complete", nil, "good"),
      ("user", "And in Python? <b>not bold</b> & \"quoted\"", yesterday, "complete", nil, nil),
      (
        "assistant", "Sure, here is the start:\n\n```python\nprint(\"hi\")\n```\n\nAnd then", yesterday, "stopped", nil,
        nil
      ),
      ("user", "Thanks! What about a long line?", today, "complete", nil, nil),
      ("assistant", "", today, "failed", "The network connection was lost.", nil),
      ("assistant", "Like this:\n\n```\n\(longLine)\n```", today, "complete", nil, "bad"),
    ]
    return archive(turns)
  }

  /// Replies and a user turn that try every way to run script; each would mark `<html>` with
  /// `data-pwned` if it ran.
  static func hostile() -> String {
    let mark = "document.documentElement.setAttribute('data-pwned', "
    let turns: [(String, String, String, String, String?, String?)] = [
      (
        "user", "<script>\(mark)'user')</script><img src=x onerror=\"\(mark)'user-img')\">", "2026-01-05T10:00:00Z",
        "complete", nil, nil
      ),
      (
        "assistant",
        """
        Inline <script>\(mark)'inline')</script> and <img src="x" onerror="\(mark)'img')"> and <svg onload="\(mark)'svg')"></svg>

        <script>
        \(mark)'block')
        </script>

        <div onmouseover="\(mark)'div')" style="position:fixed;inset:0">cover</div>

        <iframe srcdoc="<script>parent.\(mark)'iframe')</script>"></iframe>

        [link](javascript:\(mark)'link')) and <javascript:alert(1)> and ![img](javascript:alert(2))

        </script><script>\(mark)'close')</script>
        """,
        "2026-01-05T10:00:01Z", "complete", nil, nil
      ),
      (
        "assistant", "```html\n</script><script>\(mark)'code')</script>\n```", "2026-01-05T10:00:02Z", "stopped", nil,
        nil
      ),
      ("assistant", "", "2026-01-05T10:00:03Z", "failed", "<img src=x onerror=\"\(mark)'error')\">", nil),
    ]
    return archive(turns)
  }

  static func archive(_ turns: [(String, String, String, String, String?, String?)]) -> String {
    var messages: [[String: Any]] = []
    for (index, turn) in turns.enumerated() {
      var message: [String: Any] = [
        "id": String(format: "00000000-0000-4000-8000-%012d", index + 1), "role": turn.0, "text": turn.1,
        "date": turn.2, "state": turn.3,
      ]
      if let error = turn.4 { message["error"] = error }
      message["feedback"] = turn.5 ?? NSNull()
      messages.append(message)
    }
    let data =
      (try? JSONSerialization.data(withJSONObject: ["messages": messages], options: [.prettyPrinted])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  static func iso(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }

  /// Exports `thread` with `replykit export --to html` into `directory` and returns the page.
  /// `arguments` are added to the command line; `language` is `LANG`.
  static func exportPage(
    _ thread: String, in directory: URL, name: String = "page.html", arguments: [String] = [],
    language: String = "en_US.UTF-8"
  ) throws -> URL {
    let input = directory.appendingPathComponent(name + ".json")
    try Data(thread.utf8).write(to: input)
    let output = directory.appendingPathComponent(name)
    let result = try CLIRunner.run(
      ["export", input.path, "--to", "html", "-o", output.path] + arguments,
      environment: ["TZ": "UTC", "LANG": language, "LC_ALL": "", "LC_TIME": ""])
    guard result.status == 0 else {
      throw HeadlessChromium.Failure(description: "replykit export failed: \(result.stderr)")
    }
    return output
  }
}
