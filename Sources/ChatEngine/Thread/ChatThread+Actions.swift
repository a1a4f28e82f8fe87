import Foundation

extension ChatThread {
  /// Whether a message is a finished reply: complete or stopped (the turns with an action row).
  func isFinishedReply(_ message: ChatMessage) -> Bool {
    message.role == .assistant && (message.state == .complete || message.state == .stopped)
  }

  /// The finished reply with `id`, or why there is none: no such message, the person's turn, or a
  /// reply that streams or failed.
  func finishedReplyIndex(_ id: UUID) throws(ChatActionError) -> Int {
    let index = try shownIndex(id)
    guard messages[index].role == .assistant else { throw .notAReply(id) }
    guard isFinishedReply(messages[index]) else { throw .replyNotFinished(id) }
    return index
  }

  /// Copies a finished reply: its plain text, with the markdown source and HTML as richer
  /// flavours; shows "Copied" on it, announces it and plays the copy haptic.
  ///
  /// - Throws: why nothing was copied (the thread is unchanged): `id` is not a complete or
  ///   stopped reply.
  public func copy(_ id: UUID) throws(ChatActionError) {
    let index = try finishedReplyIndex(id)
    let text = messages[index].text
    let formatter = environment.formatter
    environment.clipboard(
      ChatCopyPayload(plainText: formatter.plainText(text), markdown: text, html: formatter.html(text)))
    markCopied(.reply(id))
  }

  /// Copies just the code of one code block of a reply (also while it streams).
  ///
  /// - Parameter block: the index of the block among the reply's code blocks, from 0.
  /// - Throws: why nothing was copied: no such reply, or no such block.
  public func copyCode(in id: UUID, block: Int) throws(ChatActionError) {
    let index = try shownIndex(id)
    guard messages[index].role == .assistant else { throw .notAReply(id) }
    let blocks = environment.formatter.codeBlocks(messages[index].text)
    guard blocks.indices.contains(block) else { throw .noSuchCodeBlock(id, index: block, count: blocks.count) }
    environment.clipboard(ChatCopyPayload(plainText: blocks[block]))
    markCopied(.codeBlock(id, block))
  }

  /// The plain text Share offers for a finished reply, or `nil` for any other turn.
  public func shareText(for id: UUID) -> String? {
    guard let index = try? finishedReplyIndex(id) else { return nil }
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
  /// once, then `onFeedback` gets the new value. Once the newest tap on the reply has its answer,
  /// the reply shows the last value `onFeedback` accepted: a rejected tap rolls back to that
  /// value, not to the one from before the tap (two rejected taps, good then bad, end on the value
  /// from before both), and the answer to an older tap never overrides a newer tap still waiting.
  ///
  /// - Returns: the task that calls `onFeedback`; await it to know the outcome.
  /// - Throws: why nothing changed: the thumbs are hidden (no `onFeedback`), or `id` is not a
  ///   complete or stopped reply.
  @discardableResult
  public func rate(_ id: UUID, _ value: ChatMessage.Feedback) throws(ChatActionError) -> Task<Void, Never> {
    guard let onFeedback else { throw .feedbackNotOffered }
    let index = try finishedReplyIndex(id)
    let previous = messages[index].feedback
    let chosen: ChatMessage.Feedback? = previous == value ? nil : value
    messages[index].feedback = chosen
    environment.haptic(.rating)
    feedbackTapCounter &+= 1
    let tap = feedbackTapCounter
    feedbackLedgers[id, default: FeedbackLedger(confirmed: previous)].tapped(tap)
    let message = messages[index]
    return Task { [weak self] in
      let accepted: Bool
      do {
        try await onFeedback(message, chosen)
        accepted = true
      } catch {
        accepted = false
      }
      self?.answered(tap, of: id, value: chosen, accepted: accepted)
    }
  }

  /// `onFeedback` answered `tap` on reply `id`: updates the ledger and the shown value.
  private func answered(_ tap: UInt64, of id: UUID, value: ChatMessage.Feedback?, accepted: Bool) {
    guard var ledger = feedbackLedgers[id] else { return }
    let shown = accepted ? ledger.accepted(tap, value: value) : ledger.rejected(tap)
    feedbackLedgers[id] = ledger.isSettled ? nil : ledger
    guard case .show(let confirmed) = shown else { return }
    guard let index = index(of: id) else {
      // The reply was switched away meanwhile: the answer still lands on that version.
      if !branches.isEmpty { branches.update(id) { $0.feedback = confirmed } }
      return
    }
    guard messages[index].feedback != confirmed else { return }
    messages[index].feedback = confirmed
  }
}
