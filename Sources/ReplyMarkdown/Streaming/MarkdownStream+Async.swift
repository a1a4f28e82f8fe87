import Synchronization

extension MarkdownStream {
  /// How the async adapter groups the chunks of a source into updates.
  ///
  /// Coalescing never loses anything: the chunks of one update are concatenated and fed to the
  /// stream in one ``MarkdownStream/feed(_:)`` call, which yields the same blocks as feeding
  /// them one by one (the final output does not depend on the chunking).
  public enum Coalescing: Sendable, Hashable {
    /// One update per element of the source that brings bytes, in order (an empty element brings
    /// nothing to show and makes none). A consumer slower than the source gets them all (the
    /// elements wait, as bytes, until it asks).
    case eachChunk
    /// At most one update per `interval` of the adapter's clock: the first chunk is published at
    /// once; what arrives later within the interval is published when the interval ends (even if
    /// the source sends nothing more), or at the end of the source.
    case interval(Duration)
    /// Updates of at least `bytes` UTF-8 bytes of the source each (the last one may be smaller).
    case bytes(Int)
  }

  /// The updates of this stream as it is fed the `String` chunks of `source`, ending with the
  /// final update of ``finish()``.
  ///
  /// See ``MarkdownStreamUpdates`` for what is guaranteed (order, errors, cancellation).
  /// - Parameters:
  ///   - coalescing: how chunks are grouped into updates (``Coalescing/eachChunk`` by default).
  ///   - clock: the clock of ``Coalescing/interval(_:)`` (tests inject their own).
  public func updates<Source: AsyncSequence & Sendable>(
    from source: Source, coalescing: Coalescing = .eachChunk, clock: some Clock<Duration> = ContinuousClock()
  ) -> MarkdownStreamUpdates where Source.Element == String {
    MarkdownStreamUpdates(stream: self, source: source, isText: true, coalescing: coalescing, clock: clock) {
      $1.append(contentsOf: $0.utf8)
    }
  }

  /// The updates of this stream as it is fed the UTF-8 bytes of `source` (one byte per element, as
  /// `FileHandle.AsyncBytes` or `URLSession.AsyncBytes` give them), ending with the final update
  /// of ``finish()``.
  ///
  /// A character split between updates is held until it completes, as in ``feed(bytes:)``. One
  /// update per byte is rarely wanted: pass ``Coalescing/bytes(_:)`` or
  /// ``Coalescing/interval(_:)``. See ``MarkdownStreamUpdates`` for what is guaranteed.
  public func updates<Source: AsyncSequence & Sendable>(
    from source: Source, coalescing: Coalescing = .eachChunk, clock: some Clock<Duration> = ContinuousClock()
  ) -> MarkdownStreamUpdates where Source.Element == UInt8 {
    MarkdownStreamUpdates(stream: self, source: source, isText: false, coalescing: coalescing, clock: clock) {
      $1.append($0)
    }
  }

  /// The updates of this stream as it is fed the chunks of UTF-8 bytes of `source` (`[UInt8]`,
  /// `ArraySlice<UInt8>`, or Foundation's `Data`), ending with the final update of ``finish()``.
  ///
  /// A character split between chunks is held until it completes, as in ``feed(bytes:)``. See
  /// ``MarkdownStreamUpdates`` for what is guaranteed.
  public func updates<Source: AsyncSequence & Sendable>(
    from source: Source, coalescing: Coalescing = .eachChunk, clock: some Clock<Duration> = ContinuousClock()
  ) -> MarkdownStreamUpdates where Source.Element: Collection, Source.Element.Element == UInt8 {
    MarkdownStreamUpdates(stream: self, source: source, isText: false, coalescing: coalescing, clock: clock) {
      $1.append(contentsOf: $0)
    }
  }
}

/// The updates of a ``MarkdownStream`` fed from an `AsyncSequence`, as
/// `MarkdownStream.updates(from:coalescing:clock:)` makes them.
///
/// Guarantees:
/// - The updates are those of the stream fed every chunk of the source in order (grouped as the
///   ``MarkdownStream/Coalescing`` says), then ``MarkdownStream/finish()``: the last element is
///   the update with ``MarkdownStreamUpdate/isFinal`` set, and applying every element to a stream
///   renderer ends in the one-shot rendering of the whole source.
/// - When the source throws, what arrived before is published, then the final update of it (the
///   reply as it stands, finished), then the error is rethrown by the next call to `next()`.
/// - Parsing happens in the consuming task, at its pace: a slow consumer gets fewer, larger
///   updates (except with ``MarkdownStream/Coalescing/eachChunk``), never a backlog of tails.
/// - Cancelling the consuming task, or dropping the iterator, stops reading the source: the
///   reading task is cancelled and exits at the source's next element (dropping the source's
///   iterator), and `next()` returns `nil` from then on (no update after cancellation).
/// - One iteration per sequence value: each iterator reads the source anew, as the source allows.
///   An iterator is used by one task (it is not `Sendable`): two tasks calling `next()` on copies
///   of one iterator at once left one of them waiting for ever (a review).
///
/// - Complexity: each update costs a ``MarkdownStream/feed(_:)`` of its chunks; the source is read
///   by one task that only buffers bytes.
public struct MarkdownStreamUpdates: AsyncSequence, Sendable {
  /// An update.
  public typealias Element = MarkdownStreamUpdate

  private let stream: MarkdownStream
  private let isText: Bool
  private let coalescing: MarkdownStream.Coalescing
  private let clock: _AdapterClock
  private let startReading: @Sendable (_FeedChannel) -> Task<Void, Never>

  init<Source: AsyncSequence & Sendable>(
    stream: MarkdownStream, source: Source, isText: Bool, coalescing: MarkdownStream.Coalescing,
    clock: some Clock<Duration>, append: @escaping @Sendable (Source.Element, inout [UInt8]) -> Void
  ) {
    self.stream = stream
    self.isText = isText
    self.coalescing = coalescing
    self.clock = _AdapterClock(clock)
    startReading = { channel in
      Task {
        do {
          for try await element in source {
            if Task.isCancelled { return }
            channel.receive { append(element, &$0) }
          }
          channel.end(throwing: nil)
        } catch {
          channel.end(throwing: error)
        }
      }
    }
  }

  /// Starts reading the source.
  public func makeAsyncIterator() -> AsyncIterator {
    let channel = _FeedChannel(separateChunks: coalescing == .eachChunk)
    let reader = _ReaderHandle(startReading(channel))
    return AsyncIterator(
      stream: stream, isText: isText, coalescing: coalescing, clock: clock, channel: channel, reader: reader)
  }

  /// Feeds the stream as chunks arrive and returns its updates.
  public struct AsyncIterator: AsyncIteratorProtocol {
    private enum Phase {
      case reading
      /// The source ended (with an error to rethrow after the final update, if any).
      case finishing((any Error)?)
      case failing(any Error)
      case done
    }

    private var stream: MarkdownStream
    private let isText: Bool
    private let coalescing: MarkdownStream.Coalescing
    private let clock: _AdapterClock
    private let channel: _FeedChannel
    private let reader: _ReaderHandle
    private var phase = Phase.reading
    private var lastPublish: Duration?

    fileprivate init(
      stream: MarkdownStream, isText: Bool, coalescing: MarkdownStream.Coalescing, clock: _AdapterClock,
      channel: _FeedChannel, reader: _ReaderHandle
    ) {
      self.stream = stream
      self.isText = isText
      self.coalescing = coalescing
      self.clock = clock
      self.channel = channel
      self.reader = reader
    }

    /// The next update; `nil` after the final one, or once the consuming task is cancelled.
    public mutating func next() async throws -> MarkdownStreamUpdate? {
      while true {
        if Task.isCancelled { return stop() }
        switch phase {
        case .done:
          return nil
        case .failing(let error):
          phase = .done
          throw error
        case .finishing(let error):
          phase = error.map { .failing($0) } ?? .done
          return stream.finish()
        case .reading:
          break
        }
        let state = channel.snapshot()
        if state.ended, state.pendingBytes == 0 {
          phase = .finishing(state.error)
          continue
        }
        if state.pendingBytes > 0 {
          let now = clock.now()
          switch ready(pendingBytes: state.pendingBytes, ended: state.ended, now: now) {
          case .now:
            let bytes = channel.take(all: coalescing != .eachChunk)
            lastPublish = now
            let update = isText ? stream.feed(String(decoding: bytes, as: UTF8.self)) : stream.feed(bytes: bytes)
            if Task.isCancelled { return stop() }
            return update
          case .at(let deadline):
            await channel.wait(until: deadline, clock: clock)
            continue
          case .later:
            break
          }
        }
        await channel.wait(until: nil, clock: clock)
      }
    }

    private enum Readiness {
      case now
      case at(Duration)
      /// When more arrives.
      case later
    }

    private func ready(pendingBytes: Int, ended: Bool, now: Duration) -> Readiness {
      if ended { return .now }
      switch coalescing {
      case .eachChunk:
        return .now
      case .bytes(let minimum):
        return pendingBytes >= minimum ? .now : .later
      case .interval(let interval):
        guard let lastPublish else { return .now }
        let deadline = lastPublish + interval
        return now >= deadline ? .now : .at(deadline)
      }
    }

    private mutating func stop() -> MarkdownStreamUpdate? {
      phase = .done
      reader.cancel()
      return nil
    }
  }
}

/// The adapter's clock, as durations since the adapter was made.
struct _AdapterClock: Sendable {
  let now: @Sendable () -> Duration
  let sleep: @Sendable (Duration) async throws -> Void

  init<C: Clock<Duration>>(_ clock: C) {
    let start = clock.now
    now = { start.duration(to: clock.now) }
    sleep = { try await clock.sleep(until: start.advanced(by: $0), tolerance: nil) }
  }
}

/// Cancels the reading task when the last iterator copy that holds it goes away.
final class _ReaderHandle: Sendable {
  private let task: Task<Void, Never>

  init(_ task: Task<Void, Never>) { self.task = task }

  func cancel() { task.cancel() }

  deinit { task.cancel() }
}

/// What the reading task hands to the consumer: bytes received and not yet fed, whether the source
/// ended, and a wake-up for the consumer waiting for either.
final class _FeedChannel: Sendable {
  struct Snapshot {
    var pendingBytes: Int
    var ended: Bool
    var error: (any Error)?
  }

  private struct State {
    /// Chunks not yet fed (one per source element with `separateChunks`, else at most one).
    var chunks: [[UInt8]] = []
    var pendingBytes = 0
    var ended = false
    var error: (any Error)?
    var waiter: CheckedContinuation<Void, Never>?
    /// A wake-up that came while nobody waited (the next wait returns at once).
    var signalled = false

    mutating func wake() -> CheckedContinuation<Void, Never>? {
      guard let waiter else {
        signalled = true
        return nil
      }
      self.waiter = nil
      return waiter
    }
  }

  private let separateChunks: Bool
  private let state = Mutex(State())

  init(separateChunks: Bool) { self.separateChunks = separateChunks }

  /// Appends one element (`append` adds its bytes) and wakes the consumer.
  func receive(_ append: (inout [UInt8]) -> Void) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      if separateChunks || state.chunks.isEmpty {
        var chunk: [UInt8] = []
        append(&chunk)
        // An empty element is no chunk: fed alone, it made an update that showed nothing new
        // and put the next element's one call later (a review).
        guard !chunk.isEmpty else { return nil }
        state.pendingBytes += chunk.count
        state.chunks.append(chunk)
      } else {
        let before = state.chunks[0].count
        append(&state.chunks[0])
        state.pendingBytes += state.chunks[0].count - before
      }
      return state.wake()
    }
    waiter?.resume()
  }

  /// Records the end of the source and wakes the consumer.
  func end(throwing error: (any Error)?) {
    let waiter = state.withLock { state in
      state.ended = true
      state.error = error
      return state.wake()
    }
    waiter?.resume()
  }

  func snapshot() -> Snapshot {
    state.withLock { Snapshot(pendingBytes: $0.pendingBytes, ended: $0.ended, error: $0.error) }
  }

  /// Removes and returns the pending bytes: all of them, or the first chunk.
  func take(all: Bool) -> [UInt8] {
    state.withLock { state in
      guard !state.chunks.isEmpty else { return [] }
      let bytes: [UInt8]
      if all {
        bytes = state.chunks.count == 1 ? state.chunks[0] : Array(state.chunks.joined())
        state.chunks = []
      } else {
        bytes = state.chunks.removeFirst()
      }
      state.pendingBytes -= bytes.count
      return bytes
    }
  }

  /// Suspends until the reading task adds or ends, `deadline` passes, or the task is cancelled.
  func wait(until deadline: Duration?, clock: _AdapterClock) async {
    let timer = deadline.map { deadline in
      Task { [self] in
        try? await clock.sleep(deadline)
        if !Task.isCancelled { wakeWaiter() }
      }
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { state -> Bool in
          if state.signalled || Task.isCancelled {
            state.signalled = false
            return true
          }
          state.waiter = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      wakeWaiter()
    }
    timer?.cancel()
  }

  private func wakeWaiter() {
    let waiter = state.withLock { $0.wake() }
    waiter?.resume()
  }
}
