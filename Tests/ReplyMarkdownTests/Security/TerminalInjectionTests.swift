import Testing

@testable import ReplyMarkdown

/// The terminal-injection vectors through the parser and the HTML path. (The ANSI renderer's
/// tests use the same fixture to assert nothing reaches the terminal.)
@Suite struct TerminalInjectionTests {
  @Test func thereAreEnoughVectorsAndEachCarriesAControl() {
    #expect(TerminalInjectionVectors.payloads.count >= 30)
    for (name, payload) in TerminalInjectionVectors.payloads {
      #expect(!TerminalInjectionVectors.dangerousCharacters(in: payload).isEmpty, "\(name) holds no control")
    }
  }

  @Test func everyVectorParsesAndRendersLikeCmark() {
    for vector in TerminalInjectionVectors.all {
      let document = MarkdownDocument(vector.markdown)
      #expect(document.diagnostics.isEmpty, "\(vector.name)")
      let html = HTMLRenderer().render(document)
      #expect(html == CmarkReference.html(vector.markdown), "\(vector.name)")
      // HTML may carry the input's controls as text (browsers show them inert), never new ones.
      let input = Set(TerminalInjectionVectors.dangerousCharacters(in: vector.markdown))
      let output = Set(TerminalInjectionVectors.dangerousCharacters(in: html))
      #expect(output.isSubset(of: input.union(["\u{FFFD}"])), "\(vector.name)")
    }
  }

  @Test func controlsNeverLandInsideATag() {
    for vector in TerminalInjectionVectors.all {
      let html = HTMLRenderer().render(MarkdownDocument(vector.markdown))
      var inTag = false
      var quote: Character?
      for character in html {
        if inTag {
          if let open = quote {
            if character == open { quote = nil }
          } else if character == "\"" || character == "'" {
            quote = character
          } else if character == ">" {
            inTag = false
          } else {
            let dangerous = character.unicodeScalars.contains(where: TerminalInjectionVectors.isDangerous)
            #expect(!dangerous, "\(vector.name): control inside a tag")
          }
        } else if character == "<" {
          inTag = true
        }
      }
    }
  }
}

/// The same vectors through the terminal renderer: nothing from the input reaches the terminal as
/// a control sequence, with colour and hyperlinks off or on.
@Suite struct TerminalInjectionANSITests {
  /// Removes the renderer's own sequences: SGR (`ESC [ … m`) and OSC 8 hyperlinks ending in ST.
  static func strippingOwnSequences(_ text: String) -> String {
    var out: [Unicode.Scalar] = []
    let scalars = Array(text.unicodeScalars)
    var index = 0
    while index < scalars.count {
      if scalars[index] == "\u{1B}", index + 1 < scalars.count, scalars[index + 1] == "[" {
        var end = index + 2
        while end < scalars.count, ("0"..."9").contains(scalars[end]) || scalars[end] == ";" { end += 1 }
        if end < scalars.count, scalars[end] == "m" {
          index = end + 1
          continue
        }
      }
      if scalars[index] == "\u{1B}", index + 3 < scalars.count, scalars[index + 1] == "]", scalars[index + 2] == "8" {
        var end = index + 3
        while end + 1 < scalars.count, !(scalars[end] == "\u{1B}" && scalars[end + 1] == "\\") { end += 1 }
        index = end + 2
        continue
      }
      out.append(scalars[index])
      index += 1
    }
    var result = ""
    result.unicodeScalars.append(contentsOf: out)
    return result
  }

  @Test func nothingFromTheInputReachesTheTerminal() {
    for color in [false, true] {
      let renderer = ANSIRenderer(options: ANSIOptions(width: 60, color: color, hyperlinks: color))
      for vector in TerminalInjectionVectors.all {
        let output = renderer.render(MarkdownDocument(vector.markdown))
        let visible = color ? Self.strippingOwnSequences(output) : output
        let dangerous = TerminalInjectionVectors.dangerousCharacters(in: visible).filter { $0 != "\n" }
        #expect(dangerous.isEmpty, "\(vector.name) (colour \(color)): \(dangerous.map { String($0.value, radix: 16) })")
      }
    }
  }
}
