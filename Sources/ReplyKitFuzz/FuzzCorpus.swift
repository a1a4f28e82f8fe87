import Foundation

/// What the mutation fuzzer starts from: seed documents and dictionary tokens.
public struct FuzzCorpus: Sendable {
  /// Seed documents (replies, spec examples, regression inputs), as bytes.
  public var seeds: [[UInt8]]
  /// Tokens to insert (from a libFuzzer/AFL dictionary).
  public var tokens: [[UInt8]]

  /// Creates a corpus.
  public init(seeds: [[UInt8]], tokens: [[UInt8]]) {
    self.seeds = seeds.isEmpty ? [Array("# seed\n\n*a* [b](c)\n".utf8)] : seeds
    self.tokens =
      tokens.isEmpty
      ? ["*", "_", "[", "]", "(", ")", "<", ">", "|", "`", "\n", "> ", "- "].map { Array($0.utf8) } : tokens
  }

  /// Loads the seeds of a repository checkout: every `.md` under `corpusDirectory` (recursively),
  /// the `markdown` of every example in `sharedCorpus/*.json`, and the tokens of
  /// `sharedCorpus/fuzzing-dictionary.dict`. Missing folders are skipped.
  public static func load(corpusDirectory: URL, sharedCorpus: URL?) -> FuzzCorpus {
    var seeds: [[UInt8]] = []
    for url in markdownFiles(under: corpusDirectory) {
      if let data = try? Data(contentsOf: url) { seeds.append(Array(data)) }
    }
    var tokens: [[UInt8]] = []
    if let shared = sharedCorpus {
      struct Example: Decodable { let markdown: String }
      for name in exampleFiles(in: shared) {
        guard let data = try? Data(contentsOf: shared.appendingPathComponent(name)),
          let examples = try? JSONDecoder().decode([Example].self, from: data)
        else { continue }
        seeds.append(contentsOf: examples.map { Array($0.markdown.utf8) })
      }
      if let text = try? String(contentsOf: shared.appendingPathComponent("fuzzing-dictionary.dict"), encoding: .utf8) {
        tokens = parseDictionary(text)
      }
    }
    return FuzzCorpus(seeds: seeds, tokens: tokens)
  }

  /// The `.md` files under `directory` (recursively), by path; none when it is missing.
  public static func markdownFiles(under directory: URL) -> [URL] {
    guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
    var files: [URL] = []
    for case let url as URL in walker where url.pathExtension == "md" { files.append(url) }
    return files.sorted { $0.path < $1.path }
  }

  /// The names of the example files (`*.json` but `pathological.json`) in a shared corpus folder.
  public static func exampleFiles(in shared: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: shared.path)) ?? []).filter {
      $0.hasSuffix(".json") && $0 != "pathological.json"
    }.sorted()
  }

  /// Parses a libFuzzer/AFL dictionary: one `name="value"` or `"value"` per line, `#` comments,
  /// `\\`, `\"` and `\xHH` escapes.
  public static func parseDictionary(_ text: String) -> [[UInt8]] {
    var tokens: [[UInt8]] = []
    for line in text.split(separator: "\n") {
      let bytes = Array(line.utf8)
      guard let open = bytes.firstIndex(of: UInt8(ascii: "\"")), let close = bytes.lastIndex(of: UInt8(ascii: "\"")),
        close > open, bytes.first != UInt8(ascii: "#")
      else { continue }
      var token: [UInt8] = []
      var index = open + 1
      while index < close {
        if bytes[index] == UInt8(ascii: "\\") && index + 1 < close {
          let next = bytes[index + 1]
          if next == UInt8(ascii: "x") && index + 3 < close,
            let value = UInt8(String(decoding: bytes[(index + 2)...(index + 3)], as: UTF8.self), radix: 16)
          {
            token.append(value)
            index += 4
            continue
          }
          token.append(next)
          index += 2
          continue
        }
        token.append(bytes[index])
        index += 1
      }
      if !token.isEmpty { tokens.append(token) }
    }
    return tokens
  }
}
