import ReplyKitFuzz

/// libFuzzer's entry point: the first byte picks the options (bit 0 smart punctuation, bit 1
/// unsafe HTML), the rest is the markdown. Runs ``FuzzOracle``'s checks (without timing: the
/// sanitizers are slow, and libFuzzer's own `-timeout` catches hangs); a failed check aborts, so
/// libFuzzer saves and can minimise the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  guard let data, size > 0 else { return 0 }
  let buffer = UnsafeBufferPointer(start: data, count: size)
  let flags = buffer[0]
  let input = FuzzOracle.Input(bytes: Array(buffer.dropFirst()), smart: flags & 1 == 1, unsafe: flags & 2 == 2)
  do throws(FuzzOracle.Failure) {
    try FuzzOracle(checksTime: false).check(input)
  } catch {
    fatalError("\(error.check): \(error.detail)")
  }
  return 0
}
