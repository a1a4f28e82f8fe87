import Foundation
import Observation

/// The headless chat-thread engine: the thread, its streaming reply, and everything a view draws.
///
/// Holds the thread as a tree of turns (``ChatThreadTree``) and shows one path of it, oldest first,
/// in ``messages``. Whenever the shown path ends with the person's turn it asks the `reply`
/// closure for a stream and writes its chunks into a new assistant message.
///
/// Versions, and the rules they follow:
/// - "The latest" is the last message of the shown path, whichever branch that is on.
/// - Regenerate and Retry act on the latest reply only: they add a new version of it, with a new
///   id, beside the old one, and show it; the old one stays as an earlier version. An earlier reply
///   is asked again by editing the turn before it (``edit(_:text:)``, with the same text if you like).
/// - ``edit(_:text:)`` on any of the person's turns adds a version of that turn and asks for a new
///   reply to it; the old turn and everything after it stay as the other branch.
/// - ``showVersion(_:)`` switches a shown turn to another of its versions; the turns after it
///   follow that version's branch, as it was last shown. A streaming reply is stopped first (its
///   text kept, Stopped), since a switch always takes it off the shown path; switching to the
///   version already shown changes nothing. The switch is announced ("Version 2 of 3").
/// - Streaming, Stop, thumbs, Copy and Share act on the shown versions: an id of a version that
///   does not show is refused with ``ChatActionError/notShown(_:)``. A rating answered after its
///   reply was switched away still lands on that version.
///
/// Guarantees, checked by tests:
/// - at most one reply streams, in the whole tree, and it is the last message of the shown path;
/// - every write from a stream is fenced by the reply's id and run: after Stop, or once superseded,
///   a stream never changes the thread;
/// - only the person's Stop (and a send, which stops first) makes a reply Stopped: a
///   `CancellationError` the stream throws on its own is a failure, like any other error;
/// - a reply's text only grows while it streams, and a terminal state never changes;
/// - chunks are published at most about 30 times a second (``ChatEnvironment/publishInterval``),
///   the first chunk and every terminal state at once, with nothing lost.
///
/// Main-actor isolated and `@Observable`: views observe ``messages``, ``follow``, ``copied`` and
/// ``replyRevision`` (and, through it, ``streamingReply``). Actions that can be refused throw a
/// ``ChatActionError`` saying why, and leave the thread unchanged.
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
  ///
  /// A constant `String` (which is `Sendable`), so it is `nonisolated`: any code reads it without
  /// the main actor, and no lock is needed because it never changes.
  public nonisolated static let latestID = "ChatThread.latest"

  /// The thread as shown, oldest first: the shown path of ``tree``.
  public internal(set) var messages: [ChatMessage]
  /// The versions off the shown path (see ``tree``).
  ///
  /// Not observed on its own: every change to it that a view shows (a version added, a switch)
  /// changes ``messages`` in the same step, and so notifies. Being unobserved it is mutated in
  /// place (an observed property is copied through its accessors on each mutation).
  @ObservationIgnored var branches = _VersionBranches()
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
  @ObservationIgnored package var run: ReplyRun?
  @ObservationIgnored var runCounter: UInt64 = 0
  @ObservationIgnored var copyToken: UInt64 = 0
  @ObservationIgnored var copyTimer: Task<Void, Never>?
  /// The thumbs of each reply with an `onFeedback` call still running; taps are numbered thread-wide.
  @ObservationIgnored var feedbackLedgers: [UUID: FeedbackLedger] = [:]
  @ObservationIgnored var feedbackTapCounter: UInt64 = 0
  /// Bumped when messages are appended or the last one replaced.
  @ObservationIgnored package var structureVersion = 0
  /// Bumped when the whole thread is replaced.
  @ObservationIgnored package var threadVersion = 0
  /// The lowest index of ``messages`` replaced (a version switched or added) since the day
  /// sections were last cached; `Int.max` when only the end changed.
  @ObservationIgnored package var pathChangedFrom = Int.max
  @ObservationIgnored var sectionCache: SectionCache?
  /// The error each failed reply of this session threw, by message id (never saved).
  @ObservationIgnored var failureErrors: [UUID: any Error] = [:]
  /// The streaming reply's incremental rendering; observed through ``replyRevision``.
  @ObservationIgnored var rendering: ChatStreamingReply?

  /// Creates a thread; `messages` are normalised (see ``ChatMessage/normalized(_:)``), and a reply
  /// starts at once if they end with the person's turn.
  ///
  /// - Parameters:
  ///   - onFeedback: records ratings; `nil` hides the thumbs.
  public convenience init(
    messages: [ChatMessage] = [],
    isLoading: Bool = false,
    environment: ChatEnvironment = ChatEnvironment(),
    reply: @escaping Reply,
    onFeedback: FeedbackHandler? = nil
  ) {
    self.init(
      tree: ChatThreadTree(messages: messages), isLoading: isLoading, environment: environment, reply: reply,
      onFeedback: onFeedback)
  }

  /// Creates a thread with every version of `tree` (normalised, see ``ChatThreadTree/normalized()``);
  /// a reply starts at once if the shown path ends with the person's turn.
  public init(
    tree: ChatThreadTree,
    isLoading: Bool = false,
    environment: ChatEnvironment = ChatEnvironment(),
    reply: @escaping Reply,
    onFeedback: FeedbackHandler? = nil
  ) {
    let normalized = tree.normalized()
    self.messages = normalized.messages
    self.branches = normalized.branches
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

  /// The whole thread, every version included; save it from here.
  ///
  /// - Complexity: O(1) (the storage is shared until either side changes).
  public var tree: ChatThreadTree {
    ChatThreadTree(messages: messages, branches: branches)
  }

  /// Whether a reply is streaming (it is then the last message).
  public var isStreaming: Bool { messages.last?.state == .streaming }

  /// Sends the person's message: stops a streaming reply first (keeping its text, Stopped),
  /// appends the message, resumes following and starts the reply.
  ///
  /// - Throws: ``ChatActionError/emptyMessage``, changing nothing, when `text` is empty or only
  ///   white space.
  public func send(_ text: String) throws(ChatActionError) {
    guard text.contains(where: { !$0.isWhitespace }) else { throw .emptyMessage }
    stop()
    messages.append(ChatMessage(id: environment.makeID(), role: .user, text: text, date: environment.clock.now()))
    structureVersion += 1
    follow.jumpedToLatest()
    startReply(replacingLast: false)
  }

  /// Stops the streaming reply: cancels its stream (its `onTermination` runs), keeps exactly the
  /// chunks received (every chunk the reply's reader took from the stream before Stop, shown or
  /// not yet; the reader takes each as soon as the task pool runs it), and marks it Stopped. A
  /// reply whose stream had already ended (finished or failed) ends that way instead. Does
  /// nothing when nothing streams.
  public func stop() {
    guard let run else { return }
    if run.inbox.hasEnded {
      take(run)
    } else {
      close(run, as: .stopped)
    }
  }

  /// Whether ``regenerate(_:)`` would act: `id` is the latest message, a complete or stopped reply.
  public func canRegenerate(_ id: UUID) -> Bool {
    (try? checkLatestReply(id, failed: false)) != nil
  }

  /// Whether ``retry(_:)`` would act: `id` is the latest message, a failed reply.
  public func canRetry(_ id: UUID) -> Bool {
    (try? checkLatestReply(id, failed: true)) != nil
  }

  /// Asks for the latest reply again: a new reply with a new id is added as its newest version
  /// and shows; the old reply stays as an earlier version.
  ///
  /// - Throws: why nothing changed (see ``canRegenerate(_:)``): `id` is not the latest message,
  ///   not a reply, or a reply that streams or failed.
  public func regenerate(_ id: UUID) throws(ChatActionError) {
    try checkLatestReply(id, failed: false)
    follow.jumpedToLatest()
    startReply(replacingLast: true)
  }

  /// Asks again for the latest reply that failed: a new reply with a new id is added as its
  /// newest version and shows; the failed one stays as an earlier version.
  ///
  /// - Throws: why nothing changed (see ``canRetry(_:)``): `id` is not the latest message, not a
  ///   reply, or a reply that did not fail.
  public func retry(_ id: UUID) throws(ChatActionError) {
    try checkLatestReply(id, failed: true)
    follow.jumpedToLatest()
    startReply(replacingLast: true)
  }

  /// The error the failed reply `id` threw, for the app (logging, a custom message, a retry
  /// policy); `nil` for any other turn, for a reply that ended empty, and for a failed reply loaded
  /// from a file. Only its text, the failed state's payload, is shown and saved; the error is
  /// kept for this session, also once the reply is an earlier version (after Retry), and dropped
  /// when the thread is replaced.
  public func failureError(for id: UUID) -> (any Error)? {
    failureErrors[id]
  }

  /// The streaming reply's `MarkdownStream` and its HTML, fed on every publish; `nil` when no
  /// reply streams or ``ChatEnvironment/streamingHTML`` is `nil`.
  ///
  /// A view reads ``ChatStreamingReply/html`` (or applies ``ChatStreamingReply/lastEdit`` to what
  /// it shows) instead of re-rendering the reply per publish. Dropped when the reply ends (the
  /// view then renders the finished text as it renders any finished reply: the same HTML, since a
  /// finished stream equals one-shot rendering), and replaced by a fresh one on Regenerate and
  /// Retry. Observed through ``replyRevision``, which changes on every publish.
  ///
  /// - Complexity: O(1); the value shares the engine's storage. Keep it only for one read: a copy
  ///   held across the next publish makes that publish copy the stream's state.
  public var streamingReply: ChatStreamingReply? {
    _ = replyRevision
    return rendering
  }

  /// Replaces the whole thread (a loaded file, another conversation): stops a streaming reply,
  /// normalises `newMessages`, and starts a reply if they end with the person's turn.
  public func replaceThread(with newMessages: [ChatMessage]) {
    replaceThread(with: ChatThreadTree(messages: newMessages))
  }

  /// Replaces the whole thread with `newTree` and every version in it, as
  /// ``replaceThread(with:)-([ChatMessage])`` does.
  public func replaceThread(with newTree: ChatThreadTree) {
    stop()
    let normalized = newTree.normalized()
    messages = normalized.messages
    branches = normalized.branches
    pathChangedFrom = Int.max
    structureVersion += 1
    threadVersion += 1
    copied = nil
    failureErrors = [:]
    feedbackLedgers = [:]
    noteGrowth()
    startReplyIfNeeded()
  }

  /// Waits until the reply streaming now (if any) has ended, whatever the way (finished, failed,
  /// stopped, replaced), even when its stream ignores cancellation; returns early when the
  /// waiting task is cancelled.
  public func replyFinished() async {
    guard let run else { return }
    let id = run.nextWaiter
    run.nextWaiter += 1
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled || !isCurrent(run) {
          continuation.resume()
        } else {
          run.waiters[id] = continuation
        }
      }
    } onCancel: {
      Task { @MainActor in run.waiters.removeValue(forKey: id)?.resume() }
    }
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

  /// Runs `change` on the shown path without copying it: the array is taken out of the observed
  /// property (observers are told once it is back), so it is uniquely held while it changes.
  ///
  /// - Complexity: O(1) plus `change`.
  func changePath<Result>(_ change: (inout [ChatMessage]) -> Result) -> Result {
    var path = messages
    messages = []
    defer { messages = path }
    return change(&path)
  }

  func index(of id: UUID) -> Int? {
    messages.lastIndex { $0.id == id }
  }

  /// Why `id` is not on the shown path: a version that does not show, or no message at all.
  func absent(_ id: UUID) -> ChatActionError {
    branches.isEmpty || branches.location(of: id) == nil ? .noSuchMessage(id) : .notShown(id)
  }

  /// The index of `id` on the shown path, or why it is not there.
  func shownIndex(_ id: UUID) throws(ChatActionError) -> Int {
    guard let index = index(of: id) else { throw absent(id) }
    return index
  }

  /// Checks that `id` is the latest message and a reply that Regenerate (`failed: false`, a
  /// complete or stopped reply) or Retry (`failed: true`) acts on.
  private func checkLatestReply(_ id: UUID, failed: Bool) throws(ChatActionError) {
    guard let last = messages.last else { throw absent(id) }
    guard last.id == id else { throw index(of: id) == nil ? absent(id) : .notLatest(id) }
    guard last.role == .assistant else { throw .notAReply(id) }
    if failed {
      guard case .failed = last.state else { throw .replyNotFailed(id) }
    } else {
      guard isFinishedReply(last) else { throw .replyNotFinished(id) }
    }
  }

  func startReplyIfNeeded() {
    guard messages.last?.role == .user else { return }
    startReply(replacingLast: false)
  }
}
