import ChatEngine
import Foundation
import Testing

@testable import ChatExport

private let utc = TimeZone(identifier: "UTC") ?? .current
private let english = Locale(identifier: "en_US")

private func message(
  _ number: Int, _ role: ChatMessage.Role, _ text: String, at date: String = "2026-03-01T09:30:00Z",
  state: ChatMessage.State = .complete, feedback: ChatMessage.Feedback? = nil
) -> ChatMessage {
  let formatter = ISO8601DateFormatter()
  return ChatMessage(
    id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number)) ?? UUID(), role: role, text: text,
    date: formatter.date(from: date) ?? Date(timeIntervalSince1970: 0), state: state, feedback: feedback)
}

private func page(_ messages: [ChatMessage], title: String? = nil) -> String {
  ThreadPage(messages: messages, title: title, timeZone: utc, locale: english).render()
}

/// The element text between `<tag…>` and `</tag>` for each occurrence (no nesting).
private func elements(_ tag: String, in html: String) -> [String] {
  html.components(separatedBy: "<\(tag)").dropFirst().map { part in
    let body = part.drop { $0 != ">" }.dropFirst()
    return String(body).components(separatedBy: "</\(tag)>").first ?? ""
  }
}

@Suite("Export: ThreadPage")
struct ThreadPageTests {
  @Test func sha256MatchesTheStandardVectors() throws {
    let hex = { (bytes: [UInt8]) in bytes.map { String(format: "%02x", $0) }.joined() }
    #expect(hex(_SHA256.digest(Array("".utf8))) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      hex(_SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    let long = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    #expect(hex(_SHA256.digest(Array(long.utf8))) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(hex(_SHA256.digest(million)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    #expect(_SHA256.cspSource("abc") == "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='")
  }

  @Test func policyNamesExactlyTheInlineStyleAndScript() throws {
    let html = page([message(1, .user, "Hi")])
    let policy = ThreadPage.contentSecurityPolicy
    #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"\(policy)\">"))
    #expect(policy.hasPrefix("default-src 'none'; "))
    let styles = elements("style", in: html)
    let scripts = elements("script", in: html)
    #expect(styles.count == 1)
    #expect(scripts.count == 2, "the JSON data block and the page's script")
    #expect(policy.contains("style-src \(_SHA256.cspSource(styles[0]));"))
    #expect(policy.contains("script-src \(_SHA256.cspSource(scripts[1]));"))
    #expect(html.contains("<script type=\"application/json\" id=\"rk-data\">"))
    #expect(!html.contains("http://") && !html.contains("https://"), "nothing from the network")
  }

  @Test func themeTokensAreCustomPropertiesInBothSchemes() throws {
    for token in [
      "--fill:", "--surface-elevated:", "--text-primary:", "--text-secondary:", "--danger:", "--separator:",
      "--radius-md:", "--type-body-size:", "--type-footnote-size:", "--type-caption-size:", "--elevation-e2:",
    ] {
      #expect(_PageStyle.css.contains(token), "\(token)")
    }
    #expect(_PageStyle.css.contains("@media screen and (prefers-color-scheme: dark)"), "paper stays light")
    #expect(_PageStyle.css.contains("@media (prefers-reduced-motion: reduce)"))
  }

  @Test func turnsAreLabelledArticlesWithTheirStates() throws {
    let html = page([
      message(1, .user, "Question <b>&</b>"),
      message(2, .assistant, "**Bold** answer", feedback: .good),
      message(3, .assistant, "Partial", state: .stopped),
      message(4, .assistant, "", state: .failed("Lost <connection>")),
    ])
    #expect(
      html.contains(
        "<article class=\"turn turn-you\" id=\"m-00000000-0000-4000-8000-000000000001\" aria-label=\"You\" data-i=\"0\" data-t=\"1772357400000\"><div class=\"bubble\">Question &lt;b&gt;&amp;&lt;/b&gt;</div><div class=\"meta\"><a class=\"stamp\" href=\"#m-00000000-0000-4000-8000-000000000001\"><time datetime=\"2026-03-01T09:30:00.000+00:00\">9:30\u{202F}AM</time></a>"
      ) || html.contains("<time datetime=\"2026-03-01T09:30:00.000+00:00\">9:30 AM</time></a>"))
    #expect(
      html.contains(
        "<article class=\"turn turn-assistant\" id=\"m-00000000-0000-4000-8000-000000000002\" aria-label=\"Assistant\" data-i=\"1\""
      ))
    #expect(html.contains("<div class=\"reply\"><p><strong>Bold</strong> answer</p>\n</div>"))
    #expect(
      html.contains(
        "<span class=\"rating\"><svg class=\"glyph\" aria-hidden=\"true\" focusable=\"false\"><use href=\"#g-thumb-up\"/></svg>Rated good</span>"
      ))
    #expect(html.components(separatedBy: "class=\"rating\"").count == 2, "only the given rating")
    #expect(html.contains("<p class=\"state\">Stopped</p><div class=\"actions\""))
    #expect(html.contains("<span>Lost &lt;connection&gt;</span></p><div class=\"actions\""))
    #expect(
      html.components(separatedBy: "data-action=\"copy\" title=\"Copy\" hidden>").count == 4,
      "Copy waits for the script")
    #expect(
      !html.contains(
        "data-i=\"3\" data-t=\"1772357400000\"><div class=\"reply\"></div><p class=\"state state-failed\" role=\"status\"><svg class=\"glyph\" aria-hidden=\"true\" focusable=\"false\"><use href=\"#g-warning\"/></svg><span>Lost &lt;connection&gt;</span></p><div class=\"actions\" role=\"group\" aria-label=\"Actions\"><button class=\"act\" type=\"button\" data-action=\"copy\""
      ), "a failed reply without text has no Copy")
  }

  @Test func daySeparatorsArePrintedDatesForReadersWithoutScript() throws {
    let html = page([
      message(1, .user, "a", at: "2026-03-01T23:30:00Z"),
      message(2, .assistant, "b", at: "2026-03-02T00:10:00Z"),
      message(3, .user, "c", at: "2026-03-02T08:00:00Z"),
    ])
    let separators = elements("h2", in: html)
    #expect(
      separators == [
        "<time datetime=\"2026-03-01\">March 1, 2026</time>", "<time datetime=\"2026-03-02\">March 2, 2026</time>",
      ])
    #expect(
      html.range(of: "March 2, 2026")?.lowerBound ?? html.endIndex < html.range(of: "data-i=\"1\"")?.lowerBound
        ?? html.startIndex)
  }

  @Test func codeBlocksGetACaptionAndACopyButtonAndTheCopyTextIsData() throws {
    let reply = "Try:\n\n```swift\nlet x = \"<tag>\"\n```\n\n- item\n\n  ```\n  </script><!--\n  ```\n"
    let html = page([message(1, .assistant, reply)])
    #expect(
      html.contains(
        "<div class=\"code\"><div class=\"code-head\"><span class=\"code-lang\">swift</span><button class=\"code-copy\" type=\"button\" data-action=\"copy\" data-code=\"0\" aria-label=\"Copy code\" hidden>Copy</button></div><pre tabindex=\"0\"><code class=\"language-swift\">let x = &quot;&lt;tag&gt;&quot;\n</code></pre></div>"
      ))
    #expect(
      html.contains(
        "<span class=\"code-lang\"></span><button class=\"code-copy\" type=\"button\" data-action=\"copy\" data-code=\"1\""
      ))
    let data = elements("script", in: html)[0]
    #expect(!data.contains("<"), "every < escaped in the data block")
    #expect(data.contains(#"let x = \"\u003ctag>\"\n\n• item\n\n  \u003c/script>\u003c!--"#))
    let decoded = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
    let turns = decoded?["turns"] as? [[String: Any]]
    #expect(turns?.first?["p"] as? String == "Try:\n\nlet x = \"<tag>\"\n\n• item\n\n  </script><!--")
  }

  @Test func rawHTMLAndDangerousLinksNeverReachThePage() throws {
    let html = page([
      message(1, .user, "<script>alert(1)</script>"),
      message(2, .assistant, "<img src=x onerror=alert(1)> <script>alert(2)</script>\n\n[x](javascript:alert(3))"),
    ])
    // The markup; the data block may carry the link's text (the Copy text), never as code.
    let body = (html.components(separatedBy: "<main").last ?? "").components(separatedBy: "</main>").first ?? ""
    #expect(!body.contains("<img") && !body.contains("onerror=") && !body.contains("href=\"javascript:"))
    // A disarmed link is text, with its URL shown as text.
    #expect(
      body.contains(
        "<span class=\"link-off\">x</span><span class=\"link-url\"> (<span class=\"url\">javascript:alert(3)</span>)</span>"
      ))
    #expect(elements("script", in: html).count == 2)
  }

  @Test func titleDefaultsToTheFirstLineOfThePersonsFirstTurn() throws {
    #expect(page([message(1, .user, "First line\nsecond")]).contains("<title>First line</title>"))
    #expect(page([message(1, .user, "x")], title: "A & B").contains("<title>A &amp; B</title>"))
    #expect(page([]).contains("<title>Conversation</title>"))
    #expect(
      page([]).contains(
        "<main class=\"thread\" aria-label=\"Conversation\">\n<p class=\"empty\">No messages in this conversation.</p>\n<div id=\"latest\"></div>"
      ),
      "an empty thread says so")
    #expect(!page([]).contains("0 messages"))
  }

  /// What users and models typed may hold control characters, which HTML forbids in a document
  /// and which the reply HTML keeps as cmark-gfm does: the page shows them as symbols, and the
  /// title (shown in the browser's own frame) holds no bidirectional override either.
  @Test func controlCharactersShowAsSymbols() {
    let html = page([
      message(1, .user, "Hi \u{1B}[31mred\u{07} \u{202E}evil"),
      message(
        2, .assistant,
        "Reply \u{1B}]8;;x\u{1B}\\ and \u{9B}1m and \u{0C}page\n\n```sh\u{1B}\necho \u{1B}[2J\n```\n\n| a\u{7F} |\n|---|\n| b |\n"
      ),
    ])
    let forbidden = html.unicodeScalars.filter { scalar in
      (scalar.value < 0x20 && ![0x09, 0x0A, 0x0D].contains(scalar.value)) || (0x7F...0x9F).contains(scalar.value)
    }
    #expect(forbidden.isEmpty, "\(forbidden.map { String($0.value, radix: 16) })")
    #expect(elements("title", in: html) == ["Hi \u{241B}[31mred\u{2407} \u{FFFD}evil"])
    // A form feed shows as on a terminal (a trial found it raw, where the README says symbols).
    #expect(html.contains("and \u{240C}page"))
    #expect(html.contains("Reply \u{241B}]8;;x\u{241B}\\ and \u{FFFD}1m"))
    #expect(html.contains("echo \u{241B}[2J"))
    // The page's data (Copy, Download) keeps them, escaped as JSON escapes C0 controls.
    let data = page([message(3, .user, "a\u{7F}b\u{85}c\u{9F}d\u{1B}e")])
    let script = elements("script", in: data).first { $0.contains("\"turns\"") } ?? ""
    #expect(script.contains(#"a\u007fb\u0085c\u009fd\u001be"#), "\(script)")
  }

  /// Bidirectional embedding, override and isolate controls would reorder the page around the
  /// text that holds them (a reversed link moved the page's closing parenthesis), and HTML
  /// forbids noncharacters: wherever the page shows text from the thread (title, header, turns,
  /// link text and shown URLs, failure messages, other versions) they show as U+FFFD, while the
  /// data block keeps them for Copy and Download.
  @Test func bidirectionalControlsAndNoncharactersNeverReachThePage() throws {
    // Swift source may not spell noncharacters, so they are made from their values.
    let values: [UInt32] = [
      0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE,
      0x10FFFF,
    ]
    let specials = values.compactMap { Unicode.Scalar($0).map(String.init) }
    #expect(specials.count == values.count)
    let all = specials.joined()
    let reply =
      "See [the invoice](javascript:void\u{202E}) — amount due: 1500 EUR \(all)\n\n[ok\u{2067}](https://x.example/\u{202E})"
    let quoted = { (text: String) in String(decoding: (try? JSONEncoder().encode(text)) ?? Data(), as: UTF8.self) }
    let json = """
      {"messages": [
        {"id": "00000000-0000-4000-8000-000000000001", "role": "user", "text": \(quoted("Hi \(all)")),
         "date": "2026-03-01T09:30:00Z", "state": "complete"},
        {"id": "00000000-0000-4000-8000-000000000003", "role": "assistant", "text": \(quoted(reply)),
         "date": "2026-03-01T09:30:00Z", "state": "failed", "error": \(quoted("Lost \(all)"))}],
       "versions": [{"parent": "00000000-0000-4000-8000-000000000001", "version": 1, "messages": [
        {"id": "00000000-0000-4000-8000-000000000002", "role": "assistant", "text": \(quoted("Old \(all)")),
         "date": "2026-03-01T09:30:00Z", "state": "failed", "error": \(quoted("Gone \(all)"))}]}]}
      """
    let document = try ChatArchive.decodeDocument(Data(json.utf8))
    let html = ThreadPage(
      tree: document.tree, title: "Title \(all)", timeZone: utc, locale: english,
      model: "model\u{202E}x" + specials[12],
      includesOtherVersions: true
    ).render()
    #expect(html.contains("Old "), "the other version is on the page")
    let raw = html.unicodeScalars.filter { _HTMLEscape.isReplaced($0) }
    #expect(raw.isEmpty, "\(raw.map { String($0.value, radix: 16) })")
    let shown = String(repeating: "\u{FFFD}", count: specials.count)
    #expect(html.contains("<div class=\"bubble\">Hi \(shown)</div>"))
    #expect(html.contains("<h1>Title \(shown)</h1>"))
    #expect(html.contains("<span class=\"model-name\">model\u{FFFD}x\u{FFFD}</span>"))
    #expect(html.contains("<span>Lost \(shown)</span>"))
    #expect(html.contains("<p class=\"state state-failed\">Gone \(shown)</p>"))
    #expect(
      html.contains(
        "<span class=\"link-off\">the invoice</span><span class=\"link-url\"> (<span class=\"url\">javascript:void\u{FFFD}</span>)</span> — amount due: 1500 EUR"
      ))
    #expect(html.contains(">ok\u{FFFD}</a>"))
    // The page's own spans around shown text are isolated, so nothing inside reorders around them.
    #expect(
      _PageStyle.css.contains(".link-off, .url, .model-name, .code-lang, .state > span { unicode-bidi: isolate; }"))
    // Copy and Download keep the originals.
    let data = elements("script", in: html)[0]
    let decoded = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
    let turns = decoded?["turns"] as? [[String: Any]]
    #expect(turns?.first?["p"] as? String == "Hi \(all)")
    #expect(turns?.last?["m"] as? String == reply)
  }

  /// The script reads the page's address without stopping on a malformed escape, so a link with
  /// a broken fragment still gets a working page.
  @Test func theScriptGuardsTheFragmentsDecoding() {
    #expect(_PageScript.javascript.contains("try { id = decodeURIComponent(id); } catch (error)"))
    #expect(!_PageScript.javascript.contains("var id = decodeURIComponent("))
  }

  /// A thread whose first reply has an earlier version; both replies have a code block.
  private static let versionedThread = """
    {"messages": [
      {"id": "00000000-0000-4000-8000-000000000001", "role": "user", "text": "Q", "date": "2026-03-01T09:30:00Z",
       "state": "complete"},
      {"id": "00000000-0000-4000-8000-000000000003", "role": "assistant", "text": "New\\n\\n```sh\\necho \\u001b[1mnew\\n```",
       "date": "2026-03-01T09:30:00Z", "state": "stopped"}],
     "versions": [{"parent": "00000000-0000-4000-8000-000000000001", "version": 1, "messages": [
      {"id": "00000000-0000-4000-8000-000000000002", "role": "assistant",
       "text": "Old[^1]\\n\\n```sh\\necho \\u001b[1mold\\n```\\n\\n[^1]: Note.", "date": "2026-03-01T09:30:00Z",
       "state": "stopped"}]}]}
    """

  /// `--lang` is the language of every word of the page: the version marks, the collapsed
  /// versions (their labels, states and footnote links) and the markdown that "Copy
  /// conversation" and "Download .md" give.
  @Test(arguments: [
    (
      PageLanguage.german, "Version 2 von 2", "1 weitere Version", "Version 1 von 2", "Assistent", "Angehalten",
      "Zurück zum Text", "**Du**", "**Assistent**"
    ),
    (
      PageLanguage.french, "Version 2 sur 2", "1 autre version", "Version 1 sur 2", "Assistant", "Arrêtée",
      "Retour au texte", "**Vous**", "**Assistant**"
    ),
    (
      PageLanguage.spanish, "Versión 2 de 2", "1 versión más", "Versión 1 de 2", "Asistente", "Detenida",
      "Volver al texto", "**Tú**", "**Asistente**"
    ),
  ])
  func versionsAndTheConversationsMarkdownSpeakThePagesLanguage(
    words: (PageLanguage, String, String, String, String, String, String, String, String)
  ) throws {
    let (language, mark, others, title, assistant, stopped, back, you, heading) = words
    let document = try ChatArchive.decodeDocument(Data(Self.versionedThread.utf8))
    let html = ThreadPage(
      tree: document.tree, timeZone: utc, locale: english, language: language, includesOtherVersions: true
    ).render()
    #expect(html.contains("<p class=\"state versions-mark\">\(mark)</p>"))
    #expect(html.contains("<details><summary>\(others)</summary>"))
    #expect(
      html.contains("<section class=\"version\" aria-label=\"\(title)\"><h3 class=\"version-title\">\(title)</h3>"))
    #expect(html.contains("<div class=\"version-assistant\" aria-label=\"\(assistant)\">"))
    #expect(html.contains("<p class=\"state\">\(stopped)</p></div>"))
    #expect(html.contains("aria-label=\"\(back)\""))
    for english in ["Version 1 of 2", "Version 2 of 2", "other version", "Back to content", ">Stopped<"] {
      #expect(!html.contains(english), "\(english)")
    }
    let data = elements("script", in: html)[0]
    let decoded = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
    let turns = decoded?["turns"] as? [[String: Any]] ?? []
    #expect((turns.first?["c"] as? String)?.hasPrefix(you + "\n\n> Q") == true)
    #expect((turns.last?["c"] as? String)?.hasPrefix(heading + "\n\nNew") == true)
    #expect((turns.last?["c"] as? String)?.hasSuffix("*\(stopped)*") == true)
    #expect((decoded?["words"] as? [String: Any])?["assistant"] as? String == heading)
    #expect(!data.contains("**You**"))
    #expect(data.contains("**Assistant**\\n") == (heading == "**Assistant**"), "French says Assistant too")
  }

  /// Copy on a code block copies the code as written, from the data block: every code block of
  /// the page, the collapsed versions' too, has its own number there.
  @Test func codeCopyTextsAreDataNumberedAcrossThePage() throws {
    let document = try ChatArchive.decodeDocument(Data(Self.versionedThread.utf8))
    let html = ThreadPage(tree: document.tree, timeZone: utc, locale: english, includesOtherVersions: true).render()
    #expect(html.contains("echo \u{241B}[1mnew"), "the page shows ESC as a symbol")
    #expect(html.components(separatedBy: "data-code=\"0\"").count == 2)
    #expect(html.components(separatedBy: "data-code=\"1\"").count == 2)
    let data = elements("script", in: html)[0]
    let decoded = try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
    #expect(decoded?["code"] as? [String] == ["echo \u{1B}[1mnew\n", "echo \u{1B}[1mold\n"])
    // The entities of the code element are not part of the code.
    let highlighted = page([message(1, .assistant, "```html\n<b class=\"x\">&amp;</b>\n```")])
    let code =
      try JSONSerialization.jsonObject(with: Data(elements("script", in: highlighted)[0].utf8)) as? [String: Any]
    #expect(code?["code"] as? [String] == ["<b class=\"x\">&amp;</b>\n"])
  }
}
