import Foundation

extension ChatThread {
  /// Appends a streaming reply (or adds it as the newest version of the last message, which is
  /// then kept as an earlier version) and starts its stream.
  func startReply(replacingLast: Bool) {
    let history = replacingLast ? Array(messages.dropLast()) : messages
    runCounter += 1
    let message = ChatMessage(
      id: environment.makeID(), role: .assistant, text: "", date: environment.clock.now(), state: .streaming)
    if replacingLast, !messages.isEmpty {
      changePath { branches.addVersion(message, at: $0.count - 1, of: &$0) }
    } else {
      messages.append(message)
    }
    structureVersion += 1
    noteGrowth()
    let run = ReplyRun(messageID: message.id, token: runCounter)
    self.run = run
    rendering = environment.streamingHTML.map { ChatStreamingReply(messageID: message.id, renderer: $0) }
    let stream = reply(history)
    // A reply closure that stopped this run itself (a send or Stop from inside it): the stream is
    // dropped unread, which ends it.
    guard isCurrent(run) else { return }
    let inbox = run.inbox
    // The stream is read off the main actor, so what it delivers is in the inbox at once.
    run.task = Task.detached { [weak self] in
      do {
        for try await chunk in stream where !chunk.isEmpty {
          if inbox.append(chunk) { self?.scheduleTake(run) }
        }
        if inbox.finish(.finished) { self?.scheduleTake(run) }
      } catch {
        if inbox.finish(.failed(error)) { self?.scheduleTake(run) }
      }
    }
  }

  /// Asks the main actor to take what `run`'s inbox holds, without waiting for it (the reader
  /// goes straight back to the stream, with no suspension in between).
  nonisolated private func scheduleTake(_ run: ReplyRun) {
    Task { @MainActor [weak self] in self?.take(run) }
  }

  /// Takes what `run`'s stream delivered: its text, then its end.
  func take(_ run: ReplyRun) {
    guard isCurrent(run) else { return }
    let (text, end) = run.inbox.take()
    deliver(text, to: run)
    switch end {
    case .none: break
    case .finished: self.end(run, error: nil)
    case .failed(let error): self.end(run, error: error)
    }
  }

  /// Whether `run` is the thread's current run: the fence of every write from a stream.
  func isCurrent(_ run: ReplyRun) -> Bool {
    guard let current = self.run else { return false }
    return current.token == run.token
  }

  /// Takes one chunk from `run`: buffered, and published now if it is the first or the publish
  /// interval has passed, or else by a flush at the end of the interval.
  ///
  /// - Complexity: amortised O(chunk) unless it publishes; never copies the thread.
  package func deliver(_ chunk: String, to run: ReplyRun) {
    guard isCurrent(run), !chunk.isEmpty else { return }
    run.pending += chunk
    let now = environment.clock.now()
    // A wall clock set back (now before the last publish) never holds chunks back for longer.
    let due = min(run.lastPublish, now).addingTimeInterval(environment.publishInterval)
    if run.publishCount == 0 || now >= due || now < run.lastPublish {
      publish(run, at: now)
    } else if run.flushTask == nil {
      let clock = environment.clock
      run.flushTask = Task { [weak self] in
        do { try await clock.sleep(until: due) } catch { return }
        guard let self, self.isCurrent(run), !Task.isCancelled else { return }
        run.flushTask = nil
        self.publish(run, at: clock.now())
      }
    }
  }

  /// Moves the pending text of `run` into its message and tells observers once.
  private func publish(_ run: ReplyRun, at now: Date) {
    guard !run.pending.isEmpty, let index = streamingIndex(of: run) else { return }
    // A flush still waiting would publish early; the next held chunk schedules a fresh one.
    run.flushTask?.cancel()
    run.flushTask = nil
    let appended = run.pending
    run.pending = ""
    run.lastPublish = now
    run.publishCount += 1
    messages[index].text += appended
    rendering?.feed(appended)
    replyRevision += 1
    noteGrowth()
    environment.replyUpdates(
      ReplyUpdate(messageID: run.messageID, appended: appended, revision: run.publishCount, isFinal: false))
  }

  /// The stream of `run` ended on its own (normally or by throwing): complete, or failed. Ignored
  /// unless `run` is current.
  ///
  /// A `CancellationError` here is a failure too: Stop (and a send, a replaced thread or the
  /// thread's end) closes the run before the stream ends, so the only cancellation that reaches
  /// this point came from the model's side, and the person did not stop anything.
  func end(_ run: ReplyRun, error: (any Error)?) {
    guard isCurrent(run), let index = streamingIndex(of: run) else { return }
    let state: ChatMessage.State
    switch error {
    case .none:
      state =
        messages[index].text.isEmpty && run.pending.isEmpty ? .failed(ChatMessage.defaultFailureMessage) : .complete
    case .some(let error):
      failureErrors[run.messageID] = error
      state = .failed(Self.failureMessage(for: error))
    }
    close(run, as: state)
  }

  /// Ends `run` with a terminal `state`: publishes what is pending, detaches the run, and
  /// announces a finished or failed reply.
  func close(_ run: ReplyRun, as state: ChatMessage.State) {
    self.run = nil
    rendering = nil
    run.task?.cancel()
    run.flushTask?.cancel()
    run.flushTask = nil
    // What arrived and was not taken yet belongs to the reply too (Stop keeps it).
    run.pending += run.inbox.take().text
    let waiters = run.waiters.values
    run.waiters = [:]
    for waiter in waiters { waiter.resume() }
    guard let index = streamingIndex(of: run) else { return }
    let appended = run.pending
    run.pending = ""
    run.publishCount += 1
    if !appended.isEmpty { messages[index].text += appended }
    messages[index].state = state
    replyRevision += 1
    environment.replyUpdates(
      ReplyUpdate(messageID: run.messageID, appended: appended, revision: run.publishCount, isFinal: true))
    switch state {
    case .complete:
      environment.announce(.replyFinished)
    case .failed(let reason):
      environment.announce(.replyFailed(reason))
      environment.haptic(.failure)
    case .stopped, .streaming:
      break
    }
  }

  private func streamingIndex(of run: ReplyRun) -> Int? {
    guard let index = messages.indices.last, messages[index].id == run.messageID else { return nil }
    return index
  }

  /// The error's `errorDescription`, or the default message when it has none.
  static func failureMessage(for error: any Error) -> String {
    guard let description = (error as? any LocalizedError)?.errorDescription, !description.isEmpty else {
      return ChatMessage.defaultFailureMessage
    }
    return description
  }
}
