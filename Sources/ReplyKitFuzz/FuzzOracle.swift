import Foundation
import ReplyMarkdown

/// The checks one fuzz input must pass, for every renderer ReplyKit has.
///
/// - No crash (the process survives).
/// - HTML equal to cmark-gfm's own `cmark_render_html` of the same text; when the guard changed
///   the text, equal to cmark-gfm's rendering of the guarded text, and the guard reported it.
/// - Time per input under ``timeBudget(forBytes:)`` and output under ``outputBound(forBytes:)``.
///
/// Renderers that land later add one entry to ``checks``.
public struct FuzzOracle: Sendable {
  /// One fuzz case: the input and how to parse and render it.
  public struct Input: Sendable {
    /// The markdown, as bytes (invalid UTF-8 included).
    public var bytes: [UInt8]
    /// Smart punctuation on or off (GitHub's options otherwise).
    public var smart: Bool
    /// HTML in unsafe mode (raw HTML kept) or safe mode.
    public var unsafe: Bool

    /// Creates an input.
    public init(bytes: [UInt8], smart: Bool, unsafe: Bool) {
      self.bytes = bytes
      self.smart = smart
      self.unsafe = unsafe
    }

    /// The parse options.
    public var parseOptions: ParseOptions { smart ? [.github, .smartPunctuation] : .github }
  }

  /// A failed check: which one, and what was seen.
  public struct Failure: Error, Sendable, Equatable {
    /// The check's name (`html-differential`, `time`, ...); minimisation keeps it.
    public var check: String
    /// Details for the report.
    public var detail: String
  }

  /// What one check sees: the input, the guarded text, the parsed document.
  public struct Context {
    /// The input.
    public let input: Input
    /// The input as text.
    public let text: String
    /// The guard's result for the input.
    public let guarded: GuardedInput
    /// The document parsed from the input.
    public let document: MarkdownDocument
  }

  /// One renderer's checks: returns the output size, or throws a ``Failure``.
  public typealias Check = @Sendable (Context) throws(Failure) -> Int

  /// The checks, one per renderer.
  public static let checks: [(name: String, check: Check)] = [
    ("html", htmlCheck)
  ]

  /// The CPU time allowed for one input: half a second plus 10 µs per byte (64 kB: 1.15 s).
  public static func timeBudget(forBytes count: Int) -> Double { 0.5 + Double(count) * 10e-6 }

  /// The output allowed for one input, per renderer: 64 bytes per input byte plus 4 MiB (table
  /// padding up to ``InputLimits/maxTableCells`` cells).
  public static func outputBound(forBytes count: Int) -> Int { 64 * count + (4 << 20) }

  /// Whether to time inputs (off under sanitizers, which are slow).
  public var checksTime: Bool

  /// Creates an oracle.
  public init(checksTime: Bool = true) { self.checksTime = checksTime }

  /// Runs every check on `input`.
  public func check(_ input: Input) throws(Failure) {
    let started = Self.threadCPUTime()
    let text = String(decoding: input.bytes, as: UTF8.self)
    let guarded = InputGuard.apply(text, options: input.parseOptions)
    let document = MarkdownDocument(text, options: input.parseOptions)
    if guarded.diagnostics != document.diagnostics {
      throw Failure(check: "diagnostics", detail: "the document's diagnostics differ from the guard's")
    }
    if guarded.diagnostics.isEmpty && guarded.text != text {
      throw Failure(check: "silent-change", detail: "the guard changed the text without a diagnostic")
    }
    let context = Context(input: input, text: text, guarded: guarded, document: document)
    for (name, check) in Self.checks {
      let size = try check(context)
      if size > Self.outputBound(forBytes: input.bytes.count) {
        throw Failure(check: "output-bound", detail: "\(name): \(size) bytes from \(input.bytes.count)")
      }
    }
    let seconds = Self.threadCPUTime() - started
    if checksTime && seconds > Self.timeBudget(forBytes: input.bytes.count) {
      throw Failure(check: "time", detail: "\(seconds) s for \(input.bytes.count) bytes")
    }
  }

  /// CPU time of the calling thread in seconds: unlike wall time, it does not grow when other
  /// processes load the machine.
  static func threadCPUTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Our HTML against cmark-gfm's, on the guarded text.
  static let htmlCheck: Check = { context throws(Failure) in
    let options: HTMLRenderer.Options = context.input.unsafe ? [.unsafe] : []
    let ours = HTMLRenderer(options: options).render(context.document)
    let reference = CmarkReference.html(context.guarded.text, options: context.input.parseOptions, renderOptions: options)
    if ours != reference {
      throw Failure(check: "html-differential", detail: "ours \(ours.prefix(200).debugDescription) ≠ C \(reference.prefix(200).debugDescription)")
    }
    return ours.utf8.count
  }
}
