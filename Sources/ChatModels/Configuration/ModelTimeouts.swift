/// How long a reply may wait on the server.
public struct ModelTimeouts: Sendable, Hashable {
  /// Seconds from sending the request to the response's status line and headers (covers
  /// connecting, TLS and the server's queue).
  public var connect: Double
  /// Seconds the server may stay silent between any two pieces of the response once it has
  /// started (keep-alive comments count as activity).
  public var idle: Double

  /// Creates timeouts; defaults: 30 s to the response, 60 s idle.
  public init(connect: Double = 30, idle: Double = 60) {
    self.connect = connect
    self.idle = idle
  }
}
