import Foundation

/// The language of a ``ThreadPage``'s own words (labels, buttons, states, the header), its
/// `lang` attribute and the dates its script rebuilds in the reader's browser.
///
/// One language for the whole page: a reader whose browser speaks another language still reads
/// every word of the page, printed or rebuilt, in this one.
///
/// - Thread safety: a value type; `Sendable`.
public struct PageLanguage: Sendable, Hashable {
  /// The BCP 47 code written to `<html lang>` (`en`, `de`, `fr`, `es`).
  public let code: String
  let words: _PageWords

  private init(code: String, words: _PageWords) {
    self.code = code
    self.words = words
  }

  /// English.
  public static let english = PageLanguage(code: "en", words: .english)
  /// German.
  public static let german = PageLanguage(code: "de", words: .german)
  /// French.
  public static let french = PageLanguage(code: "fr", words: .french)
  /// Spanish.
  public static let spanish = PageLanguage(code: "es", words: .spanish)

  /// Every language the page has words for, English first.
  public static let all: [PageLanguage] = [.english, .german, .french, .spanish]

  /// The language named by a code (`de`, `de-AT`, `de_DE.UTF-8`, case-insensitive), or nil when
  /// the page has no words in it.
  public init?(identifier: String) {
    let base = identifier.prefix { $0 != "-" && $0 != "_" && $0 != "." && $0 != "@" }.lowercased()
    guard let language = Self.all.first(where: { $0.code == base }) else { return nil }
    self = language
  }

  /// The language of `locale`, or English when the page has no words in it.
  public init(locale: Locale) {
    self = PageLanguage(identifier: locale.identifier) ?? .english
  }

  /// A locale for the page's printed dates in this language: `locale` itself when it speaks
  /// this language (keeping its region), else this language alone.
  public func locale(preferring locale: Locale) -> Locale {
    PageLanguage(identifier: locale.identifier)?.code == code ? locale : Locale(identifier: code)
  }
}
