import ReplyKitFuzz

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// libFuzzer's entry point: the first byte picks the options (bit 0 smart punctuation, bit 1
/// unsafe HTML), the rest is the markdown. Runs ``FuzzOracle``'s checks (without timing: the
/// sanitizers are slow, and libFuzzer's own `-timeout` catches hangs).
///
/// A failed check writes one line, `==PID==ERROR: FuzzOracle: check: detail`, to standard error and
/// calls `abort()`, so the first line of the report is the failed check and libFuzzer saves (and
/// can minimise) the input. The line is shaped like a sanitizer's: in fork mode with
/// `-ignore_crashes=1`, libFuzzer shows only the lines of a crashed job's log that hold `ERROR:`.
/// Not `fatalError`: that runs the Swift runtime's backtracer, which under AddressSanitizer reads
/// the shadow gap and is reported as an ASan `unknown-crash` ahead of the real cause
/// (`scripts/libfuzzer.sh` also turns the backtracer off with `SWIFT_BACKTRACE=enable=no`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data, size > 0 else { return 0 }
  let buffer = UnsafeBufferPointer(start: data, count: size)
  let flags = buffer[0]
  let input = FuzzOracle.Input(bytes: Array(buffer.dropFirst()), smart: flags & 1 == 1, unsafe: flags & 2 == 2)
  do throws(FuzzOracle.Failure) {
    try FuzzOracle(checksTime: false).check(input)
  } catch {
    let line = Array("==\(getpid())==ERROR: FuzzOracle: \(error.check): \(error.detail)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
  }
  return 0
}
