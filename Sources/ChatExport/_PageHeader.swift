import ChatEngine
import Foundation

/// The page's header: the title, a line with the number of messages, the export date and the
/// model when the thread records one, and the buttons for the whole thread ("Copy conversation"
/// and "Download .md", hidden until the script runs; none for an empty thread).
struct _PageHeader {
  var words: _PageWords
  var locale: Locale
  var timeZone: TimeZone

  /// The header; `title` is already escaped.
  func html(title: String, count: Int, exportDate: Date, model: String?) -> String {
    let formatter = DateFormatter()
    formatter.calendar = Calendar(identifier: .gregorian)
    formatter.locale = locale
    formatter.timeZone = timeZone
    formatter.dateStyle = .long
    formatter.timeStyle = .none
    let date =
      "<time datetime=\"\(_InternetDate.format(exportDate, timeZone: timeZone))\">"
      + "\(_HTMLEscape.text(formatter.string(from: exportDate)))</time>"
    var facts: [String] = []
    if count > 0 { facts.append("<span class=\"count\">\(_HTMLEscape.text(words.count(count)))</span>") }
    facts.append(
      "<span class=\"exported\">\(_HTMLEscape.text(words.exported).replacingOccurrences(of: "%@", with: date))</span>")
    if let model, !model.isEmpty {
      facts.append(
        "<span class=\"model\">"
          + _HTMLEscape.text(words.model).replacingOccurrences(
            of: "%@", with: "<span class=\"model-name\">\(_HTMLEscape.text(model))</span>") + "</span>")
    }
    var html = "<header class=\"page-head\"><h1>\(title)</h1>"
    html += "<p class=\"page-meta\">\(facts.joined(separator: "<span aria-hidden=\"true\"> · </span>"))</p>"
    if count > 0 {
      html += "<div class=\"page-actions\">"
      html += button(.copy, "copy-all", words.copyConversation)
      html += button(.download, "download", words.downloadMarkdown)
      html += "</div>"
    }
    return html + "</header>"
  }

  private func button(_ glyph: _Glyphs.Name, _ action: String, _ label: String) -> String {
    "<button class=\"head-act\" type=\"button\" data-action=\"\(action)\" hidden>\(_Glyphs.use(glyph))"
      + "<span class=\"head-label\">\(_HTMLEscape.text(label))</span></button>"
  }
}
