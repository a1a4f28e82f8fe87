import ChatModels
import Foundation
import Testing

/// The key never survives in server text, and removing it costs work in proportion to the text
/// (counted as the pieces looked up, never timed).
@Suite struct ModelAPIKeyTests {
  /// A key as long as OpenAI's project keys.
  private static let longKey: String = {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    return "sk-proj-" + String((0..<156).map { alphabet[($0 * 37) % 64] })
  }()

  @Test func theKeyAndPiecesOfItAreRedacted() throws {
    let key = try #require(ModelAPIKey(testKey))
    #expect(key.redact("key \(testKey) used") == "key <redacted> used")
    #expect(key.redact("masked sk-test-ABCD****0secret") == "masked <redacted>****0secret")
    #expect(key.redact("sk-test-ABCDEFGH and 1234567890secret") == "<redacted> and <redacted>")
    #expect(key.redact("short sk-test pieces stay") == "short sk-test pieces stay")
    let short = try #require(ModelAPIKey("abc"))
    #expect(short.redact("abcdef cab abc") == "<redacted>def cab <redacted>")
  }

  /// A key echoed inside a URL or a JSON string, with its characters escaped, leaves nothing of
  /// itself: the escapes that spell it are redacted too.
  @Test func anEscapedKeyIsRedactedWhole() throws {
    let key = try #require(ModelAPIKey("sk-a/b+c=d_EFGH/ijkl+MNOP"))
    let percent = "sk-a%2Fb%2Bc%3Dd_EFGH%2fijkl%2BMNOP"
    #expect(key.redact("GET /v1?key=\(percent)&x=1") == "GET /v1?key=<redacted>&x=1")
    let json = #"sk-a\/b+c=d_EFGH\/ijkl+MNOP"#
    #expect(key.redact(#"{"message":"bad key \#(json)"}"#) == #"{"message":"bad key <redacted>"}"#)
    let unicode = #"sk-a\u002fb\u002Bc\u003dd_EFGH\u002Fijkl\u002bMNOP"#
    #expect(key.redact("echo: " + unicode + ".") == "echo: <redacted>.")
    // Escapes that spell something else stay as written, and so does a lone `%` or `\`.
    #expect(key.redact(#"100% of \/path\u0041 %zz \"#) == #"100% of \/path\u0041 %zz \"#)
    // A key holding a `%` is still found as written.
    let percentKey = try #require(ModelAPIKey("pc%41%41-0123456789"))
    #expect(percentKey.redact("k=pc%41%41-0123456789;") == "k=<redacted>;")
  }

  /// Escapes of escapes (a key put in a URL, then in JSON) and HTML character references are
  /// read too, up to three levels deep.
  @Test func aKeyEscapedTwiceOrAsCharacterReferencesIsRedacted() throws {
    let key = try #require(ModelAPIKey("sk-abcdefgh12345678"))
    let twice = "sk-%2561%2562%2563defgh12345678"
    #expect(key.redact("k=" + twice + ";") == "k=<redacted>;")
    let jsonPercent = #"sk-\u0025\u0036\u0031bcdefgh12345678"#
    #expect(key.redact("[" + jsonPercent + "]") == "[<redacted>]")
    let entities = "&#115;&#x6B;&#45;abcdefgh12345678"
    #expect(key.redact("<p>" + entities + "</p>") == "<p><redacted></p>")
    // A reference without its `;`, or past U+10FFFF, stays as written.
    #expect(key.redact("&#115 &#1114112; &#x;") == "&#115 &#1114112; &#x;")
  }

  /// A key spelled with escapes across the cut leaves no fragment either, and the escapes cost at
  /// most one more look-up per scalar.
  @Test func anEscapedKeyAcrossTheCutLeavesNoFragment() throws {
    let key = try #require(ModelAPIKey("sk-a/b/c/d/e/f/g/h/i/j"))
    let escaped = "sk-a%2Fb%2Fc%2Fd%2Fe%2Ff%2Fg%2Fh%2Fi%2Fj"
    var lookups = 0
    let text = "abcd" + escaped + " tail"
    #expect(key.redact(text, prefix: 7, lookups: &lookups) == "abcd<redacted>")
    #expect(lookups <= 4 * text.unicodeScalars.count)
  }

  /// A piece of the key that starts before the cut and ends after it is still removed, so no
  /// fragment of it is left at the end of what is kept.
  @Test func aKeyAcrossTheCutLeavesNoFragment() throws {
    let key = try #require(ModelAPIKey(testKey))
    var lookups = 0
    #expect(key.redact("abcd" + testKey + " tail", prefix: 7, lookups: &lookups) == "abcd<redacted>")
    #expect(key.redact("abcd" + testKey, prefix: 4, lookups: &lookups) == "abcd")
  }

  /// A 164-character key in a 64 KiB text: one look-up per scalar of the text.
  @Test func redactionWorkIsLinearInTheText() throws {
    let key = try #require(ModelAPIKey(Self.longKey))
    let text = String(repeating: "The key \(Self.longKey.prefix(100)) was refused. ", count: 600)
    let scalars = text.unicodeScalars.count
    #expect(scalars >= 64 << 10)
    var lookups = 0
    let redacted = key.redact(text, prefix: Int.max, lookups: &lookups)
    #expect(lookups <= scalars)
    #expect(!redacted.contains(String(Self.longKey.prefix(8))))
    #expect(redacted.hasPrefix("The key <redacted> was refused. The key <redacted>"))
  }

  /// An 8 MiB server message is cleaned by reading a bounded prefix of it.
  @Test func cleaningAHugeTextReadsABoundedPrefix() throws {
    let key = try #require(ModelAPIKey(Self.longKey))
    let text = String(repeating: "x" + Self.longKey, count: (8 << 20) / (Self.longKey.count + 1))
    var lookups = 0
    let message = ModelError.clean(text, key: key, lookups: &lookups)
    #expect(lookups > 0)
    #expect(lookups <= ModelError.maximumServerTextScalars)
    #expect(message.count <= 301)
    #expect(message.hasSuffix("…"))
    #expect(message.hasPrefix("x<redacted>x<redacted>"))
    #expect(!message.contains(String(Self.longKey.prefix(8))))
  }
}
