/// Recognises the URL schemes that safe HTML output drops, as cmark-gfm does.
public enum URLSafety {
  /// Whether `url` starts (case-insensitively) with `javascript:`, `vbscript:`, `file:` or a
  /// `data:` URL that is not a PNG, GIF, JPEG or WebP image.
  public static func isDangerous(_ url: String) -> Bool {
    let lower = url.utf8.prefix(16).map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
    func starts(_ prefix: String) -> Bool { lower.starts(with: prefix.utf8) }
    if starts("data:image/png") || starts("data:image/gif") || starts("data:image/jpeg")
      || starts("data:image/webp")
    {
      return false
    }
    return starts("javascript:") || starts("vbscript:") || starts("file:") || starts("data:")
  }
}
