import ChatEngine
import Foundation
import Observation
import ReplyMarkdown

/// `replykit chat` without a terminal: prints the thread (the Example conversation by default)
/// laid out as on screen, then streams the reply that is under way (a thread file that ends with
/// the person's turn starts one), saves the thread to its file, and exits.
///
/// Colour follows `--color` and the `NO_COLOR`/`FORCE_COLOR` rules, so a pipe gets plain text.
/// While the reply streams, ``MarkdownStream`` commits its blocks and each committed line is
/// printed once, so nothing printed ever has to change; the rest follows when the reply ends,
/// and the whole is the reply's one-shot render. Exit status 0, or 1 when the reply failed.
@MainActor
final class TranscriptPrinter {
  static var running: TranscriptPrinter?

  private let turns: TurnRenderer
  private var stream = MarkdownStream()
  private var consumer: MarkdownStreamANSIRenderer
  private var fed = 0
  private var thread: ChatThread?
  private var setup: ChatSetup?
  private var signalSources: [any DispatchSourceProtocol] = []

  /// Prepares the printer for `options`.
  init(options: ChatOptions, environment: [String: String]) {
    let ansi = ANSIOptions.standardOutput(width: options.width, color: options.color, environment: environment)
    turns = TurnRenderer(
      width: ansi.width, color: ansi.color, showsControls: false, highlighter: options.highlighter)
    let width = max(turns.width - 2, ANSIOptions.minimumWidth)
    consumer = MarkdownStreamANSIRenderer(
      renderer: ANSIRenderer(
        options: ANSIOptions(
          width: width, color: ansi.color,
          highlighter: ChatHighlighting.chosen(options.highlighter, color: ansi.color),
          colorDepth: ansi.colorDepth)))
  }

  /// Prints the thread and starts streaming; exits when the reply has ended.
  func start(options: ChatOptions) {
    let setup = ChatSetup(options: options)
    self.setup = setup
    if let error = setup.loadError {
      StandardIO.writeError("replykit: \(error)")
    }
    let environment = ChatEnvironment()
    let thread = ChatThread(tree: setup.tree, environment: environment, reply: setup.reply)
    self.thread = thread
    handleSignals()
    for row in thread.rows {
      if case .turn(let turn) = row, turn.message.state == .streaming { continue }
      print(turns.lines(for: row))
    }
    guard thread.isStreaming else { exit(0) }
    Task { @MainActor in
      while thread.isStreaming {
        self.printClosedBlocks()
        await Self.nextChange(of: thread)
      }
      self.finish()
    }
  }

  /// SIGINT, SIGTERM and SIGHUP stop the reply, end the reply command's process group (waiting
  /// for it), save the thread and exit with 128 + the signal.
  private func handleSignals() {
    for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
      source.setEventHandler { [weak self] in
        MainActor.assumeIsolated {
          self?.thread?.stop()
          ProcessGroups.endAll(grace: 1)
          self?.save()
          exit(128 + signalNumber)
        }
      }
      source.resume()
      signalSources.append(source)
    }
  }

  /// Saves the thread to its file when it loaded (or is new); a failure is one line on stderr.
  private func save() {
    guard let setup, setup.autosaves, let url = setup.threadURL, let thread else { return }
    do {
      try thread.save(to: url, fields: setup.fields)
    } catch {
      StandardIO.writeError("replykit: \(error.localizedDescription)")
    }
  }

  /// Waits until the thread's published text or state changes.
  private static func nextChange(of thread: ChatThread) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      withObservationTracking {
        _ = thread.replyRevision
        _ = thread.messages.last?.state
      } onChange: {
        continuation.resume()
      }
    }
  }

  /// Feeds the reply's new text to the stream and prints the lines it committed.
  private func printClosedBlocks() {
    guard let text = thread?.messages.last?.text else { return }
    let length = text.utf8.count
    guard length > fed else { return }
    let update = stream.feed(bytes: text.utf8.dropFirst(fed))
    fed = length
    printBody(consumer.apply(update))
  }

  private func printBody(_ lines: [String]) {
    print(lines.map { $0.isEmpty ? $0 : " " + $0 })
  }

  /// Prints the rest of the reply and its end mark, then exits.
  private func finish() {
    guard let thread, let last = thread.messages.last else { exit(0) }
    printClosedBlocks()
    printBody(consumer.apply(stream.finish()))
    let marks = turns.marks(thread.turn(at: thread.messages.count - 1))
    if !marks.isEmpty { print([""] + marks) }
    save()
    ProcessGroups.endAll(grace: 1)
    if case .failed = last.state { exit(1) }
    exit(0)
  }

  private func print(_ lines: [String]) {
    StandardIO.write(lines.map { $0 + "\n" }.joined())
  }
}
