import Foundation
import ReplyKitFuzz
import ReplyMarkdown
import Synchronization

/// `replykit fuzz`: the seeded mutation fuzzer (the timing benchmarks are `replykit-bench
/// pathological` and `replykit-bench resources`).
enum FuzzCommand {
  static let help = """
    Usage: replykit fuzz [--seed N] [--iterations N | --seconds N] [--corpus DIR] [--shared DIR] [--no-save]

    Mutates the replies under Corpus/, the spec examples of ../shared/corpus and its fuzzing dictionary,
    and checks every renderer on each input: no crash, HTML equal to cmark-gfm's (on the guarded text
    when a guard reported a change), time and output within bounds. Failures are minimised and saved
    under Corpus/fuzz-regressions/; an input that crashes the checks is saved there as it is
    (crash-*.md) before the process ends by the signal. Exit status 1 when anything failed.

    Options:
      --seed N          random seed (default 1); the same seed gives the same inputs
      --iterations N    number of inputs (default 2000)
      --seconds N       run for N seconds instead (a failure found then is minimised until they are over)
      --corpus DIR      seed folder (default Corpus)
      --shared DIR      shared corpus folder (default ../shared/corpus, if present)
      --no-save         do not write regression files
      -h, --help        show this help
    """

  static let options: [String: ParsedArguments.Arity] = [
    "--seed": .value, "--iterations": .value, "--seconds": .value, "--corpus": .value, "--shared": .value,
    "--no-save": .flag, "--help": .flag, "-h": .flag,
  ]

  static func run(_ arguments: [String]) throws {
    let parsed = try ParsedArguments(arguments, command: "fuzz", options: options)
    if parsed.has("--help") || parsed.has("-h") {
      StandardIO.write(help + "\n")
      return
    }
    if let extra = parsed.positionals.first {
      throw CLIError.usage("'replykit fuzz' takes no input file, got '\(extra)' (the inputs come from --corpus)")
    }
    let sharedPath = parsed.value("--shared") ?? "../shared/corpus"
    // A folder given on the command line must exist; the default shared corpus is optional.
    for name in ["--corpus", "--shared"] {
      guard let path = parsed.value(name) else { continue }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw CLIError.failure("\(name) '\(path)': no such directory")
      }
      guard isDirectory.boolValue else { throw CLIError.failure("\(name) '\(path)': not a directory") }
    }
    let shared: URL? = FileManager.default.fileExists(atPath: sharedPath) ? URL(fileURLWithPath: sharedPath) : nil
    if parsed.value("--iterations") != nil && parsed.value("--seconds") != nil {
      throw CLIError.usage("give --iterations or --seconds, not both")
    }
    let seed = try parsed.integer("--seed", in: 0...Int.max) ?? 1
    let duration: Fuzzer.Duration
    if let seconds = try parsed.integer("--seconds", in: 1...1_000_000) {
      duration = .seconds(Double(seconds))
    } else {
      duration = .iterations(try parsed.integer("--iterations", in: 1...100_000_000) ?? 2000)
    }
    let corpusPath = parsed.value("--corpus") ?? "Corpus"
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: corpusPath, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw CLIError.failure(
        "no Corpus folder in the current directory: run 'replykit fuzz' from the repository's root, or pass --corpus DIR"
      )
    }
    let corpusURL = URL(fileURLWithPath: corpusPath)
    guard !FuzzCorpus.markdownFiles(under: corpusURL).isEmpty || !(shared.map(FuzzCorpus.exampleFiles) ?? []).isEmpty
    else {
      throw CLIError.failure(
        "nothing to mutate: '\(corpusPath)' holds no .md files and no shared examples were found; "
          + "pass --corpus DIR with markdown files, or --shared DIR")
    }
    let corpus = FuzzCorpus.load(corpusDirectory: corpusURL, sharedCorpus: shared)
    let fuzzer = Fuzzer(
      mutator: FuzzMutator(corpus: corpus),
      regressionDirectory: parsed.has("--no-save") ? nil : corpusURL.appendingPathComponent("fuzz-regressions"))
    StandardIO.writeError(
      "fuzz: seed \(seed), \(corpus.seeds.count) seeds, \(corpus.tokens.count) dictionary tokens\(shared == nil ? " (no shared corpus)" : "")"
    )
    // Ctrl-C (or SIGTERM) ends the run after the input being checked, with the summary; a second
    // one ends it at once.
    // A parent may have left them blocked (a test runner does): they are unblocked here.
    var handled = sigset_t()
    sigemptyset(&handled)
    for signalNumber in [SIGINT, SIGTERM] { sigaddset(&handled, signalNumber) }
    pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber) { number in
        FuzzCommand.stopSignal.store(number, ordering: .relaxed)
        signal(number, SIG_DFL)
      }
    }
    let stallSeconds = 60
    let report = fuzzer.run(
      seed: UInt64(seed), duration: duration, shouldStop: { FuzzCommand.stopSignal.load(ordering: .relaxed) != 0 },
      progress: { report in
        StandardIO.writeError(
          "fuzz: \(report.inputs) inputs, \(report.failures.count) failures, \(Int(report.seconds)) s")
      },
      stallLimit: .seconds(stallSeconds),
      stalled: { number, savedAt in
        StandardIO.writeError(
          "fuzz: input \(number) is still being checked after \(stallSeconds) s: "
            + (savedAt.map { "saved as \($0) (not minimised)" } ?? "not saved (--no-save)"))
      })
    let stoppedBy = FuzzCommand.stopSignal.load(ordering: .relaxed)
    let rate = report.seconds > 0 ? Double(report.inputs) / report.seconds : 0
    StandardIO.write(
      "fuzz: \(report.inputs) inputs (\(report.bytes) bytes, \(report.guarded) guarded) in \(String(format: "%.1f", report.seconds)) s, \(Int(rate)) inputs/s, \(report.failures.count) failures\n"
    )
    for failure in report.failures {
      StandardIO.write(
        "FAIL \(failure.failure.check): \(failure.failure.detail)\n  input \(failure.input.count) bytes, saved \(failure.savedAt ?? "-")\n"
      )
    }
    if stoppedBy != 0 {
      StandardIO.writeError("fuzz: stopped by signal \(stoppedBy) before the end; the summary above is complete")
    }
    if !report.failures.isEmpty { throw CLIError.failure("\(report.failures.count) fuzz failure(s)") }
    if stoppedBy != 0 {
      try StandardIO.checkOutput()
      ProgramExit.exit(128 + stoppedBy)
    }
  }

  /// The signal that asked the run to stop (0 while none has).
  static let stopSignal = Atomic<Int32>(0)
}
