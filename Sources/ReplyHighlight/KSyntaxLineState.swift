import CKSyntaxHighlighting

/// The shim's state after a line, owned: freed (under the shim's lock) when the last reference
/// goes.
///
/// - Thread safety: immutable after creation; the shim serializes the free.
final class KSyntaxLineState: Sendable {
  nonisolated(unsafe) let handle: OpaquePointer
  /// The definition the state belongs to.
  let definition: Int

  init(handle: OpaquePointer, definition: Int) {
    self.handle = handle
    self.definition = definition
  }

  deinit { cksh_state_free(handle) }
}
