import ChatEngine
import Foundation
import Observation
import ReplyMarkdown

/// `replykit chat` without a terminal: prints the thread (the Example conversation by default)
/// laid out as on screen, then streams the reply that is under way, and exits.
///
/// Colour follows `--color` and the `NO_COLOR`/`FORCE_COLOR` rules, so a pipe gets plain text.
/// While the reply streams, each top-level block is printed once it is closed (a later block
/// has started), so nothing printed ever has to change; the last block follows when the reply
/// ends. Exit status 0, or 1 when the reply failed.
@MainActor
final class TranscriptPrinter {
  static var running: TranscriptPrinter?

  private let turns: TurnRenderer
  private let blocks: ANSIRenderer
  private var thread: ChatThread?
  private var printedBlocks = 0

  /// Prepares the printer for `options`.
  init(options: ChatOptions, environment: [String: String]) {
    let ansi = ANSIOptions.standardOutput(width: options.width, color: options.color, environment: environment)
    turns = TurnRenderer(width: ansi.width, color: ansi.color, showsControls: false)
    blocks = ANSIRenderer(
      options: ANSIOptions(width: max(turns.width - 2, ANSIOptions.minimumWidth), color: ansi.color))
  }

  /// Prints the thread and starts streaming; exits when the reply has ended.
  func start(options: ChatOptions) {
    let setup = ChatSetup(options: options)
    if let error = setup.loadError {
      StandardIO.writeError("replykit: \(error)")
    }
    let environment = ChatEnvironment()
    let thread = ChatThread(messages: setup.messages, environment: environment, reply: setup.reply)
    self.thread = thread
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

  /// Prints the blocks of the streaming reply that a later block has closed.
  private func printClosedBlocks() {
    guard let text = thread?.messages.last?.text else { return }
    let document = MarkdownDocument(text)
    let indices = Array(document.topLevelBlocks)
    while printedBlocks < indices.count - 1 {
      printBlock(document, indices[printedBlocks])
      printedBlocks += 1
    }
  }

  private func printBlock(_ document: MarkdownDocument, _ index: Int) {
    print(blocks.renderLines(document, topLevelBlock: index).map { $0.isEmpty ? $0 : " " + $0 } + [""])
  }

  /// Prints the rest of the reply and its end mark, then exits.
  private func finish() {
    guard let thread, let last = thread.messages.last else { exit(0) }
    let document = MarkdownDocument(last.text)
    let indices = Array(document.topLevelBlocks)
    while printedBlocks < indices.count {
      printBlock(document, indices[printedBlocks])
      printedBlocks += 1
    }
    print(turns.marks(thread.turn(at: thread.messages.count - 1)))
    if case .failed = last.state { exit(1) }
    exit(0)
  }

  private func print(_ lines: [String]) {
    StandardIO.write(lines.map { $0 + "\n" }.joined())
  }
}
