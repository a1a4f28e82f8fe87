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
