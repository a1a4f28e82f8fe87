import ReplyMarkdown
import Testing

@testable import ReplyHighlight

/// `preloadLanguages(in:)` loads the fences' definitions on a thread of its own while the caller
/// parses; highlighting waits for it and gives what it gives without it.
@Suite("Preloading fence languages")
struct PreloadTests {
  @Test("fence openers' first words, in quotes and list items too, and nothing else")
  func fenceLanguageNames() {
    let markdown = """
      Text with ```inline``` code and ~~~ tildes.
      ```swift
      let x = 1
      ```
      > ~~~python extra words
      - ```rust{.numbered}
        fn main() {}
      ```
      ````
      ``` js
      ```\r
      ~~~~yaml\r
      """
    #expect(
      KSyntaxCodeHighlighter.fenceLanguageNames(in: markdown) == ["swift", "python", "rust", "js", "yaml"])
  }

  @Test("highlighting after and during a preload gives the same spans")
  func preloadChangesNothing() async throws {
    let highlighter = KSyntaxCodeHighlighter()
    let samples: [(String, [String])] = [
      ("go", ["package main", "func main() { fmt.Println(\"hi\") } // done"]),
      ("toml", ["[server]", "port = 8080 # comment"]),
      ("makefile", ["all: build", "\tgo build ./..."]),
      ("sql", ["SELECT id, name FROM users WHERE active = 1;"]),
    ]
    let before = try samples.map { name, lines in
      highlighter.highlight(lines: lines, language: try #require(highlighter.language(named: name))).map(\.spans)
    }
    let markdown =
      samples.map { "```\($0.0)\n\($0.1.joined(separator: "\n"))\n```\n" }.joined()
      + "```haskell\nmain = print 1\n```\n```elixir\nIO.puts 1\n```\n"
    let results = try await withThrowingTaskGroup(of: [[[CodeSpan]]].self) { group in
      for _ in 0..<4 {
        group.addTask {
          highlighter.preloadLanguages(in: markdown)
          return try samples.map { name, lines in
            highlighter.highlight(lines: lines, language: try #require(highlighter.language(named: name))).map(\.spans)
          }
        }
      }
      var all: [[[[CodeSpan]]]] = []
      for try await result in group { all.append(result) }
      return all
    }
    for result in results { #expect(result == before) }
    // A language only the preload loaded highlights as it would have anyway.
    let haskell = try #require(highlighter.language(named: "haskell"))
    #expect(!highlighter.highlight(lines: ["main = print 1"], language: haskell)[0].spans.isEmpty)
  }
}
