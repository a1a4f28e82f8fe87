/// Makes reply streams from async closures.
public enum ChatReplyStream {
  /// Writes chunks into a stream made by ``make(_:)``.
  public struct Writer: Sendable {
    let continuation: AsyncThrowingStream<String, any Error>.Continuation

    /// Sends one chunk; returns `false` once the stream has ended (stop writing then).
    @discardableResult
    public func callAsFunction(_ chunk: String) -> Bool {
      if case .terminated = continuation.yield(chunk) { return false }
      return true
    }
  }

  /// A stream whose chunks `body` writes: it finishes when `body` returns and throws what `body`
  /// throws.
  ///
  /// `body` runs in its own task, which is cancelled when the stream terminates for any reason
  /// (the consuming task was cancelled, or the stream and every iterator of it are gone: a loop
  /// left with `break` ends it only once nothing else holds the stream), so work such as a
  /// network request ends with the reply. A consumer that ended the stream that way never sees
  /// the `CancellationError` its cancellation made `body` throw: the stream just ends.
  public static func make(
    _ body: @escaping @Sendable (Writer) async throws -> Void
  ) -> AsyncThrowingStream<String, any Error> {
    let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
    let task = Task {
      do {
        try await body(Writer(continuation: continuation))
        continuation.finish()
      } catch is CancellationError where Task.isCancelled {
        // Only the stream's end cancels this task: the consumer has gone.
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }
}
