import Foundation

extension ChatMessage {
  /// The question and answer of the spec's preview, dated `date` (the answer one minute later).
  ///
  /// The answer uses the markdown a reply typically carries: a paragraph with bold, a bullet
  /// list with inline code, and a fenced Swift code block.
  public static func sample(at date: Date = Date(timeIntervalSince1970: 1_767_261_600)) -> [ChatMessage] {
    [
      ChatMessage(
        id: UUID(uuid: (0x5A, 0x4B, 0x01, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)),
        role: .user,
        text: "How do I run work in the background in Swift without blocking the main thread?",
        date: date
      ),
      ChatMessage(
        id: UUID(uuid: (0x5A, 0x4B, 0x01, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 2)),
        role: .assistant,
        text: sampleAnswer,
        date: date.addingTimeInterval(60)
      ),
    ]
  }

  /// The question and answer of the spec's preview, as a thread oldest first.
  public static var sample: [ChatMessage] { sample() }

  static let sampleAnswer = """
    Use **Swift concurrency**: start a `Task` and `await` the slow work, so the main actor stays free.

    - Mark slow functions `async` and call them with `await`.
    - Hop back to the **main actor** only to update the UI.
    - Cancel the task when the screen goes away.

    ```swift
    func refresh() {
      Task {
        let items = try await store.load()
        await MainActor.run { self.items = items }
      }
    }
    ```

    The main thread keeps drawing while `load()` runs.
    """
}
