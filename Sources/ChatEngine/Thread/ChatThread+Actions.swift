import Foundation

extension ChatThread {
  /// Whether a message is a finished reply: complete or stopped (the turns with an action row).
  func isFinishedReply(_ message: ChatMessage) -> Bool {
    message.role == .assistant && (message.state == .complete || message.state == .stopped)
  }

  /// Copies a finished reply: its plain text, with the markdown source and HTML as richer
  /// flavours; shows "Copied" on it, announces it and plays the copy haptic.
  ///
  /// - Returns: `false`, changing nothing, unless `id` is a complete or stopped reply.
  @discardableResult
  public func copy(_ id: UUID) -> Bool {
    guard let index = index(of: id), isFinishedReply(messages[index]) else { return false }
    let text = messages[index].text
    let formatter = environment.formatter
    environment.clipboard(
      ChatCopyPayload(plainText: formatter.plainText(text), markdown: text, html: formatter.html(text)))
    markCopied(.reply(id))
    return true
  }

  /// Copies just the code of one code block of a reply (also while it streams).
  ///
  /// - Returns: `false`, changing nothing, when the reply or the block does not exist.
  @discardableResult
  public func copyCode(in id: UUID, block: Int) -> Bool {
    guard let index = index(of: id), messages[index].role == .assistant else { return false }
    let blocks = environment.formatter.codeBlocks(messages[index].text)
    guard blocks.indices.contains(block) else { return false }
    environment.clipboard(ChatCopyPayload(plainText: blocks[block]))
    markCopied(.codeBlock(id, block))
    return true
  }

  /// The plain text Share offers for a finished reply, or `nil` for any other turn.
  public func shareText(for id: UUID) -> String? {
    guard let index = index(of: id), isFinishedReply(messages[index]) else { return nil }
    return environment.formatter.plainText(messages[index].text)
  }

  /// Shows "Copied" on `target` for ``ChatEnvironment/copiedDuration``; a newer copy restarts
  /// the mark, and an older timer never clears a newer mark.
  private func markCopied(_ target: CopyTarget) {
    copied = target
    copyToken &+= 1
    let token = copyToken
    copyTimer?.cancel()
    environment.announce(.copied)
    environment.haptic(.copy)
    let clock = environment.clock
    let deadline = clock.now().addingTimeInterval(environment.copiedDuration)
    copyTimer = Task { [weak self] in
      do { try await clock.sleep(until: deadline) } catch { return }
      guard let self, self.copyToken == token else { return }
      self.copied = nil
      self.copyTimer = nil
    }
  }

  /// Whether the thumbs show on a message: a finished reply, and a feedback handler exists.
  public func offersFeedback(_ id: UUID) -> Bool {
    guard onFeedback != nil, let index = index(of: id) else { return false }
    return isFinishedReply(messages[index])
  }

  /// Taps a thumb on a finished reply: choosing the selected one clears it. The choice shows at
  /// once, then `onFeedback` gets the new value; if it throws, the value from before this tap
  /// comes back, unless a newer tap on the same reply came since.
  ///
  /// - Returns: the task that calls `onFeedback` (await it to know the outcome), or `nil` when
  ///   nothing changed because the thumbs are not offered on `id`.
  @discardableResult
  public func rate(_ id: UUID, _ value: ChatMessage.Feedback) -> Task<Void, Never>? {
    guard let onFeedback, let index = index(of: id), isFinishedReply(messages[index]) else { return nil }
    let previous = messages[index].feedback
    let chosen: ChatMessage.Feedback? = previous == value ? nil : value
    messages[index].feedback = chosen
    environment.haptic(.rating)
    feedbackTapCounter &+= 1
    let tap = feedbackTapCounter
    feedbackTaps[id] = tap
    let message = messages[index]
    return Task { [weak self] in
      do {
        try await onFeedback(message, chosen)
        guard let self, self.feedbackTaps[id] == tap else { return }
        self.feedbackTaps[id] = nil
      } catch {
        guard let self, self.feedbackTaps[id] == tap else { return }
        self.feedbackTaps[id] = nil
        guard let index = self.index(of: id) else { return }
        self.messages[index].feedback = previous
      }
    }
  }
}
