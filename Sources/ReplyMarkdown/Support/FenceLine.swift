/// A line read as the start or end of a fenced code block, the way CommonMark reads it: up to
/// three spaces of indentation, then a run of backticks or tildes.
///
/// One reader for every place that looks at fences: the stream's long-block settling, the
/// healer's holds and the open fence's code.
struct FenceLine: Sendable, Hashable {
  /// Spaces before the run.
  let indent: Int
  /// The fence character: a backtick or a tilde.
  let character: UInt8
  /// The length of the run.
  let length: Int
  /// Whether only spaces and tabs (and the line break) follow the run.
  let restIsBlank: Bool
  /// Whether what follows the run holds a backtick (a backtick fence cannot have one).
  let restHasBacktick: Bool
  /// Whether nothing follows the run: a line still arriving may make it longer.
  let restIsEmpty: Bool

  /// Reads `line` (one line, its line break included or not); `nil` when it does not start with
  /// at most three spaces and a backtick or tilde.
  init?(_ line: ArraySlice<UInt8>) {
    let body = line.drop { $0 == ASCII.space }
    let indent = line.count - body.count
    guard indent <= 3, let first = body.first, first == ASCII.backtick || first == ASCII.tilde else { return nil }
    let length = body.prefix { $0 == first }.count
    let rest = body.dropFirst(length)
    self.indent = indent
    self.character = first
    self.length = length
    self.restIsBlank = rest.allSatisfy { ASCII.isBlank($0) || $0 == ASCII.newline || $0 == ASCII.carriageReturn }
    self.restHasBacktick = rest.contains(ASCII.backtick)
    self.restIsEmpty = rest.isEmpty
  }

  /// Whether the line opens a fenced code block: three or more, and no backtick after backticks.
  var opens: Bool { length >= 3 && (character == ASCII.tilde || !restHasBacktick) }

  /// The length cmark-gfm keeps for an opener of `length`: at most 255 (a byte), so a run of 255
  /// closes any longer opener (256 backticks, a line, 255 backticks: an empty code block and a
  /// paragraph; fuzz seed 1359).
  static func keptLength(_ length: Int) -> Int { min(length, 255) }

  /// Whether the line closes a block opened with `length` of `character`.
  func closes(character: UInt8, length: Int) -> Bool {
    self.character == character && self.length >= Self.keptLength(length) && restIsBlank
  }

  /// Whether the line, still arriving, may yet close a block opened with `length` of
  /// `character`: a run of it, then only blanks; a run still too short only while nothing follows
  /// it (a blank after `~~~` ends a run that cannot close `~~~~`).
  func mayClose(character: UInt8, length: Int) -> Bool {
    self.character == character && restIsBlank && (self.length >= Self.keptLength(length) || restIsEmpty)
  }
}
