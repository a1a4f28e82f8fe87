#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts the UTF-8 bytes that ``MarkdownDocument`` hands to cmark-gfm on the calling thread.
///
/// ``MarkdownStream`` reads the count before and after an update to report how many bytes that
/// update parsed (every parse it makes, the healer's included). A per-thread count keeps
/// parses on other threads out of it; an update runs on one thread from start to end.
enum ParseMeter {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Bytes parsed on this thread so far (wraps around; read it as a difference).
  static var total: Int { Int(bitPattern: pthread_getspecific(key)) }

  /// Adds `count` bytes to this thread's total.
  static func add(_ count: Int) {
    pthread_setspecific(key, UnsafeRawPointer(bitPattern: total &+ count))
  }
}
