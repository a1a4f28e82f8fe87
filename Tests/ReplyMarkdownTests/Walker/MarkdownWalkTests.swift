import Testing

@testable import ReplyMarkdown

/// The enter/exit walk: order, skipping, ancestors and list context, from the root or any node.
@Suite struct MarkdownWalkTests {
  static let sample = """
    # Title *em*

    1. one
    2. two ![alt *x*](i.png) [link](/u)
       - nested
       - again

       3) deep
    4. four

    > quote
    > - in quote
    """

  /// Records every event with the parent and the list context at that moment.
  struct Recorder: MarkdownWalker {
    var events: [String] = []
    var skipImages = true
    mutating func enter(_ index: Int, in walk: MarkdownWalk) -> MarkdownWalk.Action {
      events.append("enter \(index) parent \(walk.parent ?? -1) list \(Self.list(walk))")
      if case .image = walk.document.nodes[index].kind, skipImages { return .skipChildren }
      return .visitChildren
    }
    mutating func exit(_ index: Int, in walk: MarkdownWalk) {
      events.append("exit \(index) parent \(walk.parent ?? -1) list \(Self.list(walk))")
    }
    static func list(_ walk: MarkdownWalk) -> String {
      walk.list.map { "\($0.index)#\($0.itemNumber)/\($0.nesting)\($0.isTight ? "t" : "l")" } ?? "-"
    }
  }

  @Test func everyNodeIsEnteredThenExitedInDocumentOrder() {
    let document = MarkdownDocument(Self.sample)
    var recorder = Recorder()
    recorder.skipImages = false
    document.walk(&recorder)
    let enters = recorder.events.filter { $0.hasPrefix("enter") }.map { Int($0.split(separator: " ")[1]) ?? -1 }
    let exits = recorder.events.filter { $0.hasPrefix("exit") }.map { Int($0.split(separator: " ")[1]) ?? -1 }
    #expect(enters == Array(document.nodes.indices))
    #expect(exits.sorted() == Array(document.nodes.indices))
    #expect(recorder.events.first == "enter 0 parent -1 list -")
    #expect(recorder.events.last == "exit 0 parent -1 list -")
    // Each exit comes after the exits of the node's subtree and before the next sibling.
    var position: [String: Int] = [:]
    for (offset, event) in recorder.events.enumerated() {
      position[event.split(separator: " ")[0..<2].joined()] = offset
    }
    for index in document.nodes.indices {
      let exit = position["exit\(index)"] ?? -1
      for descendant in document.descendants(of: index) { #expect(position["exit\(descendant)"] ?? .max < exit) }
      if document.nodes[index].subtreeEnd < document.nodes.count {
        #expect(exit < position["enter\(document.nodes[index].subtreeEnd)"] ?? -1)
      }
    }
  }

  @Test func skippingAnImageSkipsItsAltTextButStillExitsIt() {
    let document = MarkdownDocument("![alt *x*](i.png) after")
    var recorder = Recorder()
    document.walk(&recorder)
    let image = document.nodes.firstIndex { if case .image = $0.kind { true } else { false } } ?? -1
    let entered = recorder.events.filter { $0.hasPrefix("enter") }.map { Int($0.split(separator: " ")[1]) ?? -1 }
    #expect(entered.contains(image))
    #expect(!entered.contains { document.descendants(of: image).contains($0) })
    #expect(recorder.events.contains { $0.hasPrefix("exit \(image) ") })
    #expect(document.plainText(of: image) == "alt x")
  }

  @Test func listContextNumbersItemsAndKnowsTightnessAndNesting() {
    let document = MarkdownDocument("3. a\n4. b\n   - c\n   - d\n\n   - e\n5. f\n")
    var numbers: [String] = []
    var walk = MarkdownWalk(document)
    while let event = walk.next() {
      guard case .enter(let index) = event, case .item = document.nodes[index].kind, let list = walk.list else {
        continue
      }
      numbers.append(
        "\(list.itemNumber)\(list.info.type == .ordered ? "o" : "b")\(list.nesting)\(list.isTight ? "t" : "l")")
    }
    #expect(numbers == ["3o0t", "4o0t", "1b1l", "2b1l", "3b1l", "5o0t"])
  }

  @Test func aWalkFromAnyNodeKnowsWhatAWalkFromTheRootKnows() {
    let document = MarkdownDocument(Self.sample)
    var whole = Recorder()
    whole.skipImages = false
    document.walk(&whole)
    for index in document.nodes.indices {
      var part = Recorder()
      part.skipImages = false
      document.walk(&part, subtree: index)
      let first = whole.events.firstIndex { $0.hasPrefix("enter \(index) ") } ?? -1
      let last = whole.events.firstIndex { $0.hasPrefix("exit \(index) ") } ?? -1
      #expect(part.events == Array(whole.events[first...last]), "node \(index)")
      #expect(MarkdownWalk(document, subtree: index).ancestors == document.ancestors(of: index))
    }
  }

  @Test func skipChildrenOutsideAnEnterDoesNothing() {
    let document = MarkdownDocument("*a* b")
    var walk = MarkdownWalk(document)
    walk.skipChildren()
    var count = 0
    while walk.next() != nil { count += 1 }
    #expect(count == 2 * document.nodes.count)
  }

  @Test func deepDocumentsWalkOnASmallStack() {
    let markdown = String(repeating: "> ", count: 50_000) + String(repeating: "- ", count: 50_000) + "x\n"
    let counts = SmallStackThread.run {
      let document = MarkdownDocument(markdown, limits: .unlimited)
      var enters = 0
      var exits = 0
      var deepestList = 0
      var walk = MarkdownWalk(document)
      while let event = walk.next() {
        if case .enter = event { enters += 1 } else { exits += 1 }
        deepestList = max(deepestList, walk.lists.count)
      }
      let last = document.nodes.count - 1
      let parentIsRight = document.parent(of: last) == document.ancestors(of: last).last
      let description = document.treeDescription()
      return [
        document.nodes.count, enters, exits, deepestList, parentIsRight ? 1 : 0,
        MarkdownWalk(document, subtree: last).ancestors.count, description.utf8.count,
      ]
    }
    #expect(counts[0] > 100_000)
    #expect(counts[1] == counts[0] && counts[2] == counts[0])
    #expect(counts[3] == 50_000)
    #expect(counts[4] == 1)
    #expect(counts[5] == counts[0] - 1)
    // Drawn at most 64 levels deep: linear, not quadratic, in the depth.
    #expect(counts[6] < counts[0] * 300)
  }
}
