/// The thread as plain text, for accessibility and export.
///
/// Each day section starts with its separator line; each turn follows as `You: ` or
/// `Assistant: ` and its plain text, then, when not complete, its state on the next line
/// (`Stopped`, `Failed: message`, `Thinking`, `Streaming`), and when the turn has other versions
/// a line saying which one this is (`Version 2 of 3`). Blocks are separated by one blank line; no
/// trailing newline.
public enum ChatTranscript {
  /// Renders `messages` under `sections` (from ``ChatDaySection/sections(for:now:calendar:timeZone:locale:)``);
  /// `versions` gives the versions of the turn at an index of `messages` (the shown path of a
  /// ``ChatThreadTree``), `nil` for a turn with one.
  ///
  /// - Complexity: O(total text), plus `plainText` per reply.
  public static func text(
    messages: [ChatMessage], sections: [ChatDaySection], plainText: (String) -> String,
    versions: (Int) -> ChatVersions? = { _ in nil }
  ) -> String {
    var blocks: [String] = []
    for section in sections {
      blocks.append(section.title)
      for index in section.range where messages.indices.contains(index) {
        let element = ChatTurnAccessibility(
          message: messages[index], plainText: plainText, versions: versions(index))
        var block = "\(element.label): \(element.value)"
        if let state = element.state { block += "\n\(state)" }
        if let versions = element.versions { block += "\n\(versions)" }
        blocks.append(block)
      }
    }
    return blocks.joined(separator: "\n\n")
  }
}
