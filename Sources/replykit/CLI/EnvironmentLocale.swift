import Foundation

/// The locale that printed dates follow, from the environment as POSIX programs read it: the
/// first of `LC_ALL`, `LC_TIME` and `LANG` that is set (`de_DE.UTF-8` is `de_DE`; `C` and `POSIX`
/// are `en_US`), else `en_US`. Foundation on Linux ignores these (its current locale is `en_001`
/// whatever they say), so `export` and `chat` ask here and print the same dates.
enum EnvironmentLocale {
  static func forDates(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Locale {
    for key in ["LC_ALL", "LC_TIME", "LANG"] {
      guard let value = environment[key], !value.isEmpty else { continue }
      let identifier = value.prefix { $0 != "." && $0 != "@" }
      if identifier == "C" || identifier == "POSIX" { return Locale(identifier: "en_US") }
      return Locale(identifier: String(identifier))
    }
    return Locale(identifier: "en_US")
  }
}
