import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps the input whose checks are running where a crash can still save it: a trap in the code
/// under test (an index out of range, an overflow, a failed precondition) ends the process, and
/// with it the fuzzer, before any failure is reported or saved.
///
/// While installed, the signals a crash raises (``signals``) run a handler, on a stack of its own
/// (a stack overflow leaves none), that writes the
/// recorded input as a `crash` regression (`crash[-smart][-unsafe]-<hash>.md`, the name
/// ``Fuzzer/regressionName(for:check:)`` gives), says so on standard error, and ends the process
/// by the signal (its default action: no backtrace of the runtime's is printed). The handler only
/// calls `strlen`, `open`, `write`, `close`, `signal` and `raise`, which are safe in a signal
/// handler; what it writes was prepared by ``record(_:in:)``.
///
/// Guarantees: nothing is written unless a crash signal arrives while an input is recorded; an
/// existing file of the same name is replaced (the same bytes and options give the same name);
/// ``uninstall()`` restores the handlers ``install()`` replaced. One recorder serves the process:
/// ``record(_:in:)`` and ``clear()`` are called from the thread that runs the checks.
public enum FuzzCrashRecorder {
  /// The signals of a crash: a Swift trap (`SIGILL` on x86-64, `SIGTRAP` on arm64), a bad memory
  /// access, an arithmetic fault and an abort.
  public static let signals: [Int32] = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT]

  /// The recorded input as the handler reads it: one block holding the byte count (an `Int`), the
  /// path (NUL-terminated) and the bytes. Swapped whole, so the handler sees one record or none.
  nonisolated(unsafe) private static var current: UnsafeMutableRawPointer?
  /// The handlers ``install()`` replaced, by signal number.
  nonisolated(unsafe) private static var previous: [sigaction] = Array(repeating: sigaction(), count: 65)
  nonisolated(unsafe) private static var installed = false
  /// The stack the handler runs on: a stack overflow (deep recursion, the likeliest crash of a
  /// parser) leaves none of the thread's own, and the handler could not save the input on it.
  nonisolated(unsafe) private static var alternateStack: UnsafeMutableRawPointer?
  static let alternateStackSize = 256 * 1024

  /// Installs the handler for ``signals``, on a stack of its own for the calling thread (the one
  /// that runs the checks); nothing is recorded yet.
  public static func install() {
    guard !installed else { return }
    installed = true
    let stack = UnsafeMutableRawPointer.allocate(byteCount: alternateStackSize, alignment: 16)
    alternateStack = stack
    var alternate = stack_t(ss_sp: stack, ss_flags: 0, ss_size: alternateStackSize)
    sigaltstack(&alternate, nil)
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { number in
      FuzzCrashRecorder.saveRecorded(announcing: true)
      // The default action ends the process by the signal. Not the handler installed before: the
      // Swift runtime's backtracer, reached that way, spun without end on a signal sent by `kill`.
      signal(number, SIG_DFL)
      raise(number)
    }
    action.sa_flags = SA_ONSTACK
    sigemptyset(&action.sa_mask)
    for number in signals { sigaction(number, &action, &previous[Int(number)]) }
  }

  /// Restores the handlers ``install()`` replaced and forgets the recorded input.
  public static func uninstall() {
    guard installed else { return }
    for number in signals { sigaction(number, &previous[Int(number)], nil) }
    var disabled = stack_t(ss_sp: nil, ss_flags: Int32(SS_DISABLE), ss_size: 0)
    sigaltstack(&disabled, nil)
    alternateStack?.deallocate()
    alternateStack = nil
    installed = false
    clear()
  }

  /// Records `input` as the one a crash saves, into `directory`.
  public static func record(_ input: FuzzOracle.Input, in directory: URL) {
    let path = Array(directory.appendingPathComponent(Fuzzer.regressionName(for: input, check: "crash")).path.utf8)
    let size = MemoryLayout<Int>.size + path.count + 1 + input.bytes.count
    let block = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<Int>.alignment)
    block.storeBytes(of: input.bytes.count, as: Int.self)
    var offset = MemoryLayout<Int>.size
    path.withUnsafeBytes { bytes in
      if let base = bytes.baseAddress { (block + offset).copyMemory(from: base, byteCount: bytes.count) }
    }
    offset += path.count
    block.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
    offset += 1
    input.bytes.withUnsafeBytes { bytes in
      if let base = bytes.baseAddress { (block + offset).copyMemory(from: base, byteCount: bytes.count) }
    }
    let old = current
    current = block
    old?.deallocate()
  }

  /// Forgets the recorded input: its checks ended.
  public static func clear() {
    let old = current
    current = nil
    old?.deallocate()
  }

  /// Writes the recorded input where ``record(_:in:)`` named it, if one is recorded; with
  /// `announcing`, says so on standard error. What the signal handler calls; returns whether a
  /// file was written whole.
  @discardableResult
  static func saveRecorded(announcing: Bool = false) -> Bool {
    guard let block = current else { return false }
    let count = block.load(as: Int.self)
    let path = (block + MemoryLayout<Int>.size).assumingMemoryBound(to: CChar.self)
    let bytes = UnsafeRawPointer(path + strlen(path) + 1)
    let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard file >= 0 else { return false }
    var written = 0
    while written < count {
      let result = write(file, bytes + written, count - written)
      if result <= 0 { break }
      written += result
    }
    let closed = close(file) == 0
    if announcing {
      let message: StaticString = "fuzz: the checks crashed; the input is saved as "
      let end: StaticString = "\n"
      _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
      _ = write(2, path, strlen(path))
      _ = write(2, end.utf8Start, end.utf8CodeUnitCount)
    }
    return written == count && closed
  }
}
