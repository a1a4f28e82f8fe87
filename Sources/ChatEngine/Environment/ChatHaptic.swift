/// A haptic event a view plays for the person's action or a failure.
public enum ChatHaptic: Hashable, Sendable {
  /// Something was copied.
  case copy
  /// A thumb was chosen or cleared.
  case rating
  /// A reply failed.
  case failure
}
