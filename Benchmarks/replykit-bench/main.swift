import ChatEngine
import Foundation
import ReplyKitFuzz
import ReplyMarkdown

/// `replykit-bench parse FILE`: in-process parse-only, render-only and parse+render medians.
func parseAndRender(_ path: String) throws -> String {
  let text = try String(contentsOfFile: path, encoding: .utf8)
  var document = MarkdownDocument(text)
  let parse = Measure.seconds(runs: 15) { document = MarkdownDocument(text) }
  var html = ""
  let render = Measure.seconds(runs: 15) { html = HTMLRenderer().render(document) }
  let reference = Measure.seconds(runs: 15) { html = CmarkReference.html(text) }
  return """
    | in-process, \(text.utf8.count / 1024) KB input, median of 15 | time |
    |---|---|
    | ReplyKit parse (cmark-gfm parse + conversion to the Swift AST) | \(Measure.ms(Measure.median(parse))) |
    | ReplyKit HTML render of the parsed AST | \(Measure.ms(Measure.median(render))) |
    | cmark-gfm parse + `cmark_render_html`, called in-process | \(Measure.ms(Measure.median(reference))) |
    | nodes in the document | \(document.nodes.count) |
    | HTML output | \(html.utf8.count / 1024) KB |

    """
}

/// A malformed `replykit-bench` argument.
enum BenchUsage: Error, CustomStringConvertible {
  case badRounds
  case badArguments
  var description: String {
    switch self {
    case .badRounds: "resources takes a number of rounds from 1 to 1000"
    case .badArguments:
      "mixed-reply takes a seed and a size in bytes; stream-one a consumer (html, plain, ansi), a kind (prose, fence, "
        + "list, table, cjk, mixed, corpus, sources, or file:PATH), a size in bytes (a count of copies for corpus) and a chunk size"
    }
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch arguments.first {
  case "parse" where arguments.count == 2:
    print(try parseAndRender(arguments[1]))
  case "engine" where arguments.count == 1:
    print(await ChatEngineBenchmark.run())
  case "versions" where arguments.count == 1:
    print(await VersionSwitchBenchmark.run())
  case "highlight" where arguments.count == 2:
    print(try HighlightBenchmark.run(path: arguments[1]))
  case "highlight-stream" where arguments.count == 1:
    print(HighlightBenchmark.streamingFence())
  case "stream" where arguments.count == 1:
    print(StreamingBenchmark.run())
  case "stream-one" where (4...5).contains(arguments.count):
    // One stream of one kind's reply (`stream-one html|plain|ansi KIND BYTES [CHUNK]`), for profilers.
    // KIND may be `file:PATH` (read as UTF-8, invalid bytes replaced), with BYTES ignored.
    let file =
      arguments[2].hasPrefix("file:") ? FileManager.default.contents(atPath: String(arguments[2].dropFirst(5))) : nil
    guard let consumer = StreamingBenchmark.Consumer(rawValue: arguments[1]), let bytes = Int(arguments[3]),
      let chunk = Int(arguments.count == 5 ? arguments[4] : "20"), chunk > 0,
      let text = file.map({ String(decoding: $0, as: UTF8.self) })
        ?? StreamingBenchmark.Kind(rawValue: arguments[2])?.text(size: bytes)
    else { throw BenchUsage.badArguments }
    print(StreamingBenchmark.streamOnce(text, chunk: chunk, consumer: consumer))
  case "stream-stats" where (3...4).contains(arguments.count):
    // Where one stream's parsing goes (`stream-stats KIND BYTES [CHUNK]`): the open part and the
    // bytes parsed per update, by percentile.
    // KIND may be `file:PATH`, with BYTES ignored.
    let file =
      arguments[1].hasPrefix("file:")
      ? try? String(contentsOfFile: String(arguments[1].dropFirst(5)), encoding: .utf8) : nil
    guard let bytes = Int(arguments[2]), let chunk = Int(arguments.count == 4 ? arguments[3] : "20"), chunk > 0,
      let text = file ?? StreamingBenchmark.Kind(rawValue: arguments[1])?.text(size: bytes)
    else { throw BenchUsage.badArguments }
    print(StreamingBenchmark.statistics(text, chunk: chunk))
  case "parse-small" where arguments.count == 3:
    // One short text parsed N times (`parse-small N TEXT`): the fixed cost of a parse, for profilers.
    guard let rounds = Int(arguments[1]), rounds > 0 else { throw BenchUsage.badArguments }
    var nodes = 0
    for _ in 0..<rounds { nodes &+= MarkdownDocument(arguments[2]).nodes.count }
    print("\(rounds) parses, \(nodes / rounds) nodes each")
  case "mixed-reply" where arguments.count == 3:
    // The seeded mixed reply the streaming benchmark uses, to feed other tools the same input.
    guard let seed = UInt64(arguments[1]), let bytes = Int(arguments[2]) else { throw BenchUsage.badArguments }
    FileHandle.standardOutput.write(Data(MixedReplyGenerator(seed: seed).reply(bytes: bytes).utf8))
  case "fuzz-check" where arguments.count == 2:
    // Every check of the fuzz oracle on one saved input (`fuzz-check FILE`, its options read from
    // the name as for Corpus/fuzz-regressions), timed as a run times them: a `time` failure of a
    // run, measured again alone. Exits 1 when a check fails (a review: it exited 0, and a script
    // trusting the status missed failures).
    let url = URL(fileURLWithPath: arguments[1])
    let input = Fuzzer.input(fromRegressionNamed: url.lastPathComponent, bytes: [UInt8](try Data(contentsOf: url)))
    do throws(FuzzOracle.Failure) {
      try FuzzOracle(checksTime: true).check(input)
      let base = FuzzOracle.timeBudget(forBytes: input.bytes.count)
      print("passes (within \(String(format: "%.2f", base)) s plus \(FuzzOracle.parsesAllowed) one-shot parses)")
    } catch {
      print("\(error.check): \(error.detail)")
      exit(1)
    }
  case "pathological" where arguments.count <= 2:
    // The cases file of the shared corpus (default ../shared/corpus/pathological.json).
    let cases = URL(fileURLWithPath: arguments.count == 2 ? arguments[1] : "../shared/corpus/pathological.json")
    try FuzzBenchmarks.pathological(cases: cases) { print($0, terminator: "") }
  case "resources" where arguments.count <= 2:
    guard let rounds = arguments.count == 2 ? Int(arguments[1]) : 1, (1...1000).contains(rounds) else {
      throw BenchUsage.badRounds
    }
    FuzzBenchmarks.resources(rounds: rounds) { print($0, terminator: "") }
  default:
    FileHandle.standardError.write(
      Data(
        ("usage: replykit-bench parse FILE | fuzz-check FILE | engine | versions | stream | stream-one CONSUMER KIND BYTES [CHUNK] "
          + "| stream-stats KIND|file:PATH BYTES [CHUNK] | highlight FILE | highlight-stream | pathological [CASES.json] | resources [ROUNDS] "
          + "| mixed-reply SEED BYTES | parse-small ROUNDS TEXT\n").utf8))
    exit(2)
  }
} catch let usage as BenchUsage {
  FileHandle.standardError.write(Data("replykit-bench: \(usage)\n".utf8))
  exit(2)
} catch {
  FileHandle.standardError.write(Data("replykit-bench: \(error)\n".utf8))
  exit(1)
}
