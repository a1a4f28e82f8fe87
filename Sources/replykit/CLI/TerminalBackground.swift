#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether the terminal's background is dark: asked with an OSC 11 query on the controlling
/// terminal (a short wait, only when standard input and output are terminals and the process
/// runs in the terminal's foreground), else from `COLORFGBG`, else dark.
///
/// Guarantees: keys typed while the query waits are not lost. Every byte it reads that is not the
/// answer is kept, in order: for the chat, which reads keys itself, until ``takeTypedAhead()``;
/// for the other commands (`keys: .returned`) they go back into the terminal's input once its
/// settings are restored, so Ctrl-C still interrupts and typed text reaches the shell; where the
/// system does not allow that, an interrupt, quit or suspend key (as the settings name them) is
/// still delivered as its signal.
enum TerminalBackground {
  /// What becomes of the keys typed while the query waits.
  enum TypedKeys {
    /// Kept for ``takeTypedAhead()`` (the chat).
    case kept
    /// Given back to the terminal, signal keys delivered as signals.
    case returned
  }

  /// How long to wait for the terminal's answer.
  static let timeoutMilliseconds: Int32 = 120
  /// The bytes the query read that were not its answer: keys typed early.
  private static let typedAhead = LockedValue<[UInt8]>([])

  /// The bytes read from the terminal while asking that were not the answer (keys typed before
  /// the chat reads keys), once: later calls get only what a later query read.
  static func takeTypedAhead() -> [UInt8] {
    let bytes = typedAhead.value
    typedAhead.set([])
    return bytes
  }

  static func isDark(environment: [String: String], asking: Bool = true, keys: TypedKeys = .kept) -> Bool {
    // A dumb terminal (`TERM=dumb`) would show the query, not answer it.
    if asking, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, environment["TERM"] != "dumb",
      let answer = query(keys: keys)
    {
      return answer
    }
    if let colors = environment["COLORFGBG"], let last = colors.split(separator: ";").last, let bg = Int(last) {
      // rxvt's convention: 0–6 and 8 are dark backgrounds, 7 and 9–15 light.
      return !(bg == 7 || (9...15).contains(bg))
    }
    return true
  }

  /// The terminal's answer to OSC 11 (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by BEL or ST), as
  /// dark or light; nil when it does not answer in time.
  private static func query(keys: TypedKeys) -> Bool? {
    let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var typed: [UInt8] = []
    // Only in the terminal's foreground: in the background (`&`, or under `timeout`) changing
    // its settings or reading from it stops the process (SIGTTOU, SIGTTIN) until it is brought
    // back (a trial: `replykit render FILE --to ansi &` stopped, printing nothing).
    guard isForeground(descriptor) else { return nil }
    var saved = termios()
    guard tcgetattr(descriptor, &saved) == 0 else { return nil }
    var raw = saved
    // Keys typed meanwhile are read as the chat will read them: a byte each, Enter as CR, Ctrl-C
    // as 0x03 (which the chat takes as quitting) rather than a signal with the terminal left
    // without echo; other commands get them back as signals once the settings are restored.
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
    raw.c_iflag &= ~tcflag_t(ICRNL)
    guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
    defer {
      if keys == .returned {
        TerminalInput.restore(saved, on: descriptor, givingBack: typed, signalKeys: SignalKeys(settings: saved))
      } else {
        _ = tcsetattr(descriptor, TCSANOW, &saved)
      }
    }
    guard
      let reply = TerminalInput.ask(
        [0x1B, 0x5D] + Array("11;?".utf8) + [0x1B, 0x5C], on: descriptor, waitMilliseconds: timeoutMilliseconds,
        until: { split($0).answer != nil })
    else { return nil }
    let (answer, other) = split(reply)
    if keys == .returned { typed = other } else { typedAhead.set(typedAhead.value + other) }
    return answer.flatMap(parse)
  }

  /// Whether this process's group is the foreground process group of the terminal `descriptor`.
  static func isForeground(_ descriptor: Int32) -> Bool {
    let group = tcgetpgrp(descriptor)
    return group >= 0 && group == getpgrp()
  }

  /// `bytes` read after the query cut into the answer (`ESC ] 11 ;` to BEL or `ESC \`, if it
  /// came whole) and the other bytes, in order: keys typed before or after it, and an answer cut
  /// short (``InputDecoder`` drops it with its rest).
  static func split(_ bytes: [UInt8]) -> (answer: [UInt8]?, other: [UInt8]) {
    let start: [UInt8] = [0x1B, 0x5D, 0x31, 0x31, 0x3B]
    var index = 0
    while index + start.count <= bytes.count {
      if bytes[index] == 0x1B, bytes[index..<(index + start.count)].elementsEqual(start) {
        var end = index + start.count
        while end < bytes.count {
          if bytes[end] == 0x07 { break }
          if bytes[end] == 0x1B, end + 1 < bytes.count, bytes[end + 1] == 0x5C {
            end += 1
            break
          }
          end += 1
        }
        // An answer still arriving stays with the keys: the chat's decoder drops it whole when
        // the rest of it comes.
        guard end < bytes.count else { break }
        return (Array(bytes[index...end]), Array(bytes[..<index] + bytes[(end + 1)...]))
      }
      index += 1
    }
    return (nil, bytes)
  }

  /// Dark or light from an OSC 11 answer; nil when it is not one.
  static func parse(_ reply: [UInt8]) -> Bool? {
    let text = String(decoding: reply, as: UTF8.self)
    guard let start = text.range(of: "rgb:") else { return nil }
    let channels = text[start.upperBound...].prefix { $0.isHexDigit || $0 == "/" }.split(separator: "/")
    guard channels.count == 3 else { return nil }
    var values: [Double] = []
    for channel in channels {
      guard let value = UInt32(channel.prefix(4), radix: 16) else { return nil }
      let maximum = Double((1 << (4 * min(channel.count, 4))) - 1)
      values.append(Double(value) / maximum)
    }
    return 0.2126 * values[0] + 0.7152 * values[1] + 0.0722 * values[2] < 0.5
  }
}
