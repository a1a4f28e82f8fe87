/// The arguments of one subcommand, split into options and positionals against a declared set of
/// options. Unknown options, missing values and an option with a value given twice (which would
/// silently drop one of the values: `-o a.html -o b.html`) are usage errors, in every command;
/// a flag given twice means what it means once.
struct ParsedArguments {
  /// How an option takes its value.
  enum Arity { case flag, value }

  var positionals: [String] = []
  private var values: [String: String] = [:]
  private var flags: Set<String> = []

  /// Parses `arguments` for `command` (used in messages) given its options by name (`--to`).
  init(_ arguments: [String], command: String, options: [String: Arity]) throws {
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let arity = options[name] else {
        throw CLIError.usage("unknown option '\(name)' for 'replykit \(command)'; see 'replykit \(command) --help'")
      }
      switch arity {
      case .flag:
        if inlineValue != nil { throw CLIError.usage("option '\(name)' takes no value") }
        flags.insert(name)
      case .value:
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < arguments.count {
          value = arguments[index]
          index += 1
        } else {
          throw CLIError.usage("option '\(name)' needs a value; see 'replykit \(command) --help'")
        }
        guard values[name] == nil else {
          throw CLIError.usage("option '\(name)' is given more than once; give it once")
        }
        values[name] = value
      }
    }
  }

  func has(_ flag: String) -> Bool { flags.contains(flag) }
  func value(_ name: String) -> String? { values[name] }

  /// The value of `name` if it is one of `choices`; a usage error naming the choices otherwise.
  func choice(_ name: String, among choices: [String], default fallback: String) throws -> String {
    guard let value = values[name] else { return fallback }
    guard choices.contains(value) else {
      throw CLIError.usage(
        "unknown value '\(value)' for \(name); expected one of: \(choices.joined(separator: ", "))")
    }
    return value
  }

  /// The value of `name` as a case of `Choice` (by raw value); a usage error naming the cases
  /// otherwise.
  func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, default fallback: Choice) throws -> Choice
  where Choice.RawValue == String {
    let text = try choice(name, among: Choice.allCases.map(\.rawValue), default: fallback.rawValue)
    return Choice(rawValue: text) ?? fallback
  }

  /// The value of `name` as an integer within `range`.
  func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
    guard let text = values[name] else { return nil }
    guard let number = Int(text), range.contains(number) else {
      throw CLIError.usage(
        "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return number
  }

  /// At most one positional: the input path (`-` or none for standard input).
  func singleInput(command: String) throws -> String? {
    guard positionals.count <= 1 else {
      throw CLIError.usage("'replykit \(command)' takes one input file, got \(positionals.count)")
    }
    return positionals.first
  }
}
