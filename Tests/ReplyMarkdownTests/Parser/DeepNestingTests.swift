import Foundation
import Testing

@testable import ReplyMarkdown

/// 100,000-deep inputs parse, render, compare, hash, encode, decode and free without recursion,
/// on a thread with a 512 KB stack. The input guards (on by default) would cap the nesting, so
/// these parses turn them off: the tree really is 100,000 levels deep.
@Suite struct DeepNestingTests {
  static let depth = 100_000

  static let inputs: [(name: String, markdown: String, minimumDepth: Int)] = [
    ("block quotes", String(repeating: "> ", count: depth) + "x\n", depth),
    ("bullet lists", String(repeating: "- ", count: depth) + "x\n", depth),
    ("ordered lists", String(repeating: "1. ", count: depth) + "x\n", depth),
    (
      "emphasis", String(repeating: "*a **a ", count: depth / 2) + "b" + String(repeating: " a** a*", count: depth / 2),
      depth
    ),
    ("images in images", String(repeating: "![", count: depth) + "a" + String(repeating: "](u)", count: depth), depth),
    ("links", String(repeating: "[a](", count: depth) + "u" + String(repeating: ")", count: depth), 1),
    ("brackets", String(repeating: "[", count: depth) + "a" + String(repeating: "]", count: depth), 1),
    ("strikethrough", String(repeating: "~~a ", count: depth) + String(repeating: " a~~", count: depth), 1),
  ]

  struct Outcome: Sendable {
    let maxDepth: Int
    let htmlBytes: Int
    let equal: Bool
    let hashesEqual: Bool
    let roundTrips: Bool
  }

  @Test(arguments: 0..<inputs.count)
  func deepInputIsHandledOnASmallStack(case index: Int) {
    let (name, markdown, minimumDepth) = Self.inputs[index]
    let outcome = SmallStackThread.run {
      let document = MarkdownDocument(markdown, limits: .unlimited)
      let copy = MarkdownDocument(markdown, limits: .unlimited)
      let html = HTMLRenderer().render(document)
      var roundTrips = false
      if let data = try? JSONEncoder().encode(document),
        let decoded = try? JSONDecoder().decode(MarkdownDocument.self, from: data)
      {
        roundTrips = decoded == document
      }
      let maxDepth = document.nodes.lazy.map(\.depth).max() ?? 0
      return Outcome(
        maxDepth: maxDepth, htmlBytes: html.utf8.count, equal: document == copy,
        hashesEqual: document.hashValue == copy.hashValue, roundTrips: roundTrips)
    }
    #expect(outcome.maxDepth >= minimumDepth, "\(name): tree depth \(outcome.maxDepth)")
    #expect(outcome.htmlBytes > 0, "\(name)")
    #expect(outcome.equal, "\(name)")
    #expect(outcome.hashesEqual, "\(name)")
    #expect(outcome.roundTrips, "\(name)")
  }

  @Test func deepHTMLEqualsTheCLibrary() {
    for (name, markdown, _) in Self.inputs {
      let ours = HTMLRenderer().render(MarkdownDocument(markdown, limits: .unlimited))
      #expect(ours == CmarkReference.html(markdown), "\(name)")
    }
  }
}
