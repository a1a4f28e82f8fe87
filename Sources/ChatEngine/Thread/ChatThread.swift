import Foundation
import Observation

/// The headless chat-thread engine: the thread, its streaming reply, and everything a view draws.
///
/// Holds the thread oldest first. Whenever the thread ends with the person's turn it asks the
/// `reply` closure for a stream and writes its chunks into a new assistant message; Regenerate and
/// Retry replace the latest reply in place with a new id. Guarantees, checked by tests:
/// - at most one reply streams, and it is the last message;
/// - every write from a stream is fenced by the reply's id and run: after Stop, or once superseded,
///   a stream never changes the thread, and cancellation never shows as a failure;
/// - a reply's text only grows while it streams, and a terminal state never changes;
/// - chunks are published at most about 30 times a second (``ChatEnvironment/publishInterval``),
///   the first chunk and every terminal state at once, with nothing lost.
///
/// Main-actor isolated and `@Observable`: views observe ``messages``, ``follow``, ``copied`` and
/// ``replyRevision``.
@MainActor
@Observable
public final class ChatThread {
  /// Makes the reply to a thread: receives every message before the reply, returns its chunks.
  public typealias Reply = @MainActor ([ChatMessage]) -> AsyncThrowingStream<String, any Error>
  /// Records a rating: the rated reply and the new value (`nil` when cleared). Throw to roll back.
  public typealias FeedbackHandler = @MainActor (ChatMessage, ChatMessage.Feedback?) async throws -> Void

  /// What was last copied, while "Copied" shows.
  public enum CopyTarget: Hashable, Sendable {
    /// A whole reply.
    case reply(UUID)
    /// One code block of a reply, by its index among the reply's code blocks.
    case codeBlock(UUID, Int)
  }

  /// The id of the anchor after the last turn, for scrolling to the latest.
  public static let latestID = "ChatThread.latest"

  /// The thread as shown, oldest first; save it from here.
  public internal(set) var messages: [ChatMessage]
  /// Whether the thread is still being fetched: rows are ghost turns meanwhile.
  public var isLoading: Bool
  /// Whether the view follows the latest turn, and whether new content came while it did not.
  public internal(set) var follow = ChatFollowState()
  /// What shows "Copied", if anything.
  public internal(set) var copied: CopyTarget?
  /// Counts publishes of streaming text (one per coalesced batch, never per chunk).
  public internal(set) var replyRevision = 0

  /// The injected clock, calendar, ids, clipboard, announcer, haptics and formatter.
  @ObservationIgnored public let environment: ChatEnvironment
  @ObservationIgnored let reply: Reply
  @ObservationIgnored let onFeedback: FeedbackHandler?
  @ObservationIgnored var run: ReplyRun?
  @ObservationIgnored var runCounter: UInt64 = 0
  @ObservationIgnored var copyToken: UInt64 = 0
  @ObservationIgnored var copyTimer: Task<Void, Never>?
  /// The latest tap per reply whose `onFeedback` is still running; taps are numbered thread-wide.
  @ObservationIgnored var feedbackTaps: [UUID: UInt64] = [:]
  @ObservationIgnored var feedbackTapCounter: UInt64 = 0
  /// Bumped when messages are appended or the last one replaced.
  @ObservationIgnored var structureVersion = 0
  /// Bumped when the whole thread is replaced.
  @ObservationIgnored var threadVersion = 0
  @ObservationIgnored var sectionCache: SectionCache?

  /// Creates a thread; `messages` are normalised (see ``ChatMessage/normalized(_:)``), and a reply
  /// starts at once if they end with the person's turn.
  ///
  /// - Parameters:
  ///   - onFeedback: records ratings; `nil` hides the thumbs.
  public init(
    messages: [ChatMessage] = [],
    isLoading: Bool = false,
    environment: ChatEnvironment = ChatEnvironment(),
    reply: @escaping Reply,
    onFeedback: FeedbackHandler? = nil
  ) {
    self.messages = ChatMessage.normalized(messages)
    self.isLoading = isLoading
    self.environment = environment
    self.reply = reply
    self.onFeedback = onFeedback
    startReplyIfNeeded()
  }

  isolated deinit {
    run?.task?.cancel()
    run?.flushTask?.cancel()
    copyTimer?.cancel()
  }

  /// Whether a reply is streaming (it is then the last message).
  public var isStreaming: Bool { messages.last?.state == .streaming }

  /// Sends the person's message: stops a streaming reply first (keeping its text, Stopped),
  /// appends the message, resumes following and starts the reply.
  ///
  /// - Returns: `false`, changing nothing, when `text` is empty or only white space.
  @discardableResult
  public func send(_ text: String) -> Bool {
    guard text.contains(where: { !$0.isWhitespace }) else { return false }
    stop()
    messages.append(ChatMessage(id: environment.makeID(), role: .user, text: text, date: environment.clock.now()))
    structureVersion += 1
    follow.jumpedToLatest()
    startReply(replacingLast: false)
    return true
  }

  /// Stops the streaming reply: cancels its stream (its `onTermination` runs), keeps exactly the
  /// chunks received, and marks it Stopped. Does nothing when nothing streams.
  public func stop() {
    guard let run else { return }
    run.task?.cancel()
    close(run, as: .stopped)
  }

  /// Whether ``regenerate(_:)`` would act: `id` is the latest message, a complete or stopped reply.
  public func canRegenerate(_ id: UUID) -> Bool {
    guard let last = messages.last, last.id == id, last.role == .assistant else { return false }
    return last.state == .complete || last.state == .stopped
  }

  /// Whether ``retry(_:)`` would act: `id` is the latest message, a failed reply.
  public func canRetry(_ id: UUID) -> Bool {
    guard let last = messages.last, last.id == id, last.role == .assistant, case .failed = last.state else {
      return false
    }
    return true
  }

  /// Asks for the latest reply again: a new reply with a new id takes its place.
  ///
  /// - Returns: `false`, changing nothing, unless ``canRegenerate(_:)``.
  @discardableResult
  public func regenerate(_ id: UUID) -> Bool {
    guard canRegenerate(id) else { return false }
    follow.jumpedToLatest()
    startReply(replacingLast: true)
    return true
  }

  /// Asks again for the latest reply that failed: a new reply with a new id takes its place.
  ///
  /// - Returns: `false`, changing nothing, unless ``canRetry(_:)``.
  @discardableResult
  public func retry(_ id: UUID) -> Bool {
    guard canRetry(id) else { return false }
    follow.jumpedToLatest()
    startReply(replacingLast: true)
    return true
  }

  /// Replaces the whole thread (a loaded file, another conversation): stops a streaming reply,
  /// normalises `newMessages`, and starts a reply if they end with the person's turn.
  public func replaceThread(with newMessages: [ChatMessage]) {
    stop()
    messages = ChatMessage.normalized(newMessages)
    structureVersion += 1
    threadVersion += 1
    copied = nil
    noteGrowth()
    startReplyIfNeeded()
  }

  /// Waits until the reply streaming now (if any) has ended, whatever the way.
  public func replyFinished() async {
    await run?.task?.value
  }

  // MARK: Follow state

  /// Reports the scroll position: reaching the bottom resumes following; leaving it stops
  /// following only when the person scrolled (`isUserDriven`), never because content grew.
  public func scrolled(isAtBottom: Bool, isUserDriven: Bool) {
    var next = follow
    next.scrolled(isAtBottom: isAtBottom, isUserDriven: isUserDriven)
    if next != follow { follow = next }
  }

  /// The person tapped "jump to latest": follow again and clear "new messages".
  public func jumpToLatest() {
    follow.jumpedToLatest()
  }

  // MARK: Helpers

  /// New content arrived: marks "new messages" when not following, writing (and notifying
  /// observers) only when that changes something.
  func noteGrowth() {
    if !follow.isFollowing && !follow.hasNewMessages { follow.contentGrew() }
  }

  func index(of id: UUID) -> Int? {
    messages.lastIndex { $0.id == id }
  }

  private func startReplyIfNeeded() {
    guard messages.last?.role == .user else { return }
    startReply(replacingLast: false)
  }
}
