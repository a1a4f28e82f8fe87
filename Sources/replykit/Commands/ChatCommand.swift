import Foundation
import ReplyMarkdown

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `replykit chat`: the chat thread as a full-screen terminal program (see ``ChatApp``), the
/// Example conversation printed when there is no terminal (see ``TranscriptPrinter``), or the
/// frame benchmark (``FrameBenchmark``). Never returns (the main queue runs until the chat
/// exits, through ``ProgramExit`` so that a failed write to standard output is reported), except
/// by throwing: bad options, or a thread file that does not load when there is no terminal.
enum ChatCommand {
  static func run(_ arguments: [String]) throws {
    let environment = TerminalEnvironment.variables
    guard let options = try ChatOptions.parse(arguments, environment: environment) else { return }
    // Before any request, and before other threads read the environment.
    if let url = options.model?.baseURL, let bypass = ModelChoice.proxyBypass(for: url, environment: environment) {
      setenv("no_proxy", bypass, 1)
    }
    // A reply or share command that exits early must not kill the chat.
    ProgramExit.ignoreBrokenPipes()
    try MainActor.assumeIsolated {
      if options.benchmark {
        Task { @MainActor in
          StandardIO.write(await FrameBenchmark.run())
          ProgramExit.exit(0)
        }
      } else if isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 && !StandardIO.terminalIsDumb {
        let app = ChatApp(options: options, environment: environment)
        ChatApp.running = app
        try app.start()
      } else {
        let printer = TranscriptPrinter(options: options, environment: environment)
        TranscriptPrinter.running = printer
        try printer.start(options: options)
      }
    }
    dispatchMain()
  }
}
