/// How long a reply may wait on the server.
///
/// Guarantees: each timeout is kept within ``minimumSeconds`` … ``maximumSeconds`` (1 ms to a
/// day) whatever is set: a larger or infinite value becomes a day, a smaller or negative one
/// 1 ms, NaN the default, so no value can overflow the timers below.
public struct ModelTimeouts: Sendable, Hashable {
  /// The longest timeout (86,400 s, a day).
  public static let maximumSeconds: Double = 86_400
  /// The shortest timeout (1 ms).
  public static let minimumSeconds: Double = 0.001

  private var connectSeconds: Double
  private var idleSeconds: Double

  /// Seconds from sending the request to the response's status line and headers (covers
  /// connecting, TLS and the server's queue).
  public var connect: Double {
    get { connectSeconds }
    set { connectSeconds = Self.clamped(newValue, default: 30) }
  }

  /// Seconds the server may stay silent between any two pieces of the response once it has
  /// started (keep-alive comments count as activity).
  public var idle: Double {
    get { idleSeconds }
    set { idleSeconds = Self.clamped(newValue, default: 60) }
  }

  /// Creates timeouts; defaults: 30 s to the response, 60 s idle.
  public init(connect: Double = 30, idle: Double = 60) {
    connectSeconds = Self.clamped(connect, default: 30)
    idleSeconds = Self.clamped(idle, default: 60)
  }

  private static func clamped(_ seconds: Double, default fallback: Double) -> Double {
    guard !seconds.isNaN else { return fallback }
    return Swift.min(Swift.max(seconds, minimumSeconds), maximumSeconds)
  }
}
