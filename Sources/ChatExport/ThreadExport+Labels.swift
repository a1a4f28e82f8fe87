extension ThreadExport {
  /// The words of the conversation's markdown: who speaks before each turn and the states of
  /// replies that did not complete. ``ThreadExport/markdown(_:timeZone:locale:)`` writes
  /// ``english``; a ``ThreadPage``'s "Copy conversation" and "Download .md" use the page's
  /// language.
  struct Labels: Sendable, Hashable {
    /// Before the person's turns, in bold.
    var you: String
    /// Before each reply, in bold.
    var assistant: String
    /// A stopped reply, in italics.
    var stopped: String
    /// A reply that was still arriving, in italics.
    var streaming: String
    /// A failed reply, in italics; `%@` stands for the reason (markdown-escaped).
    var failed: String

    /// The labels `replykit export --to markdown` writes.
    static let english = Labels(
      you: "You", assistant: "Assistant", stopped: "Stopped", streaming: "Streaming", failed: "Failed: %@")
  }
}
