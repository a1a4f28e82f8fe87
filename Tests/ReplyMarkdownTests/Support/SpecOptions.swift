import ReplyMarkdown

extension SharedData.SpecExample {
  /// The parse options this example asks for (the runner of cmark-gfm sets `unsafe` everywhere).
  var parseOptions: ParseOptions {
    var options: ParseOptions = []
    for name in extensions {
      switch name {
      case "table": options.insert(.tables)
      case "strikethrough": options.insert(.strikethrough)
      case "autolink": options.insert(.autolinks)
      case "tagfilter": options.insert(.tagFilter)
      case "tasklist": options.insert(.taskLists)
      case "footnotes": options.insert(.footnotes)
      default: break
      }
    }
    if self.options.contains("smart") { options.insert(.smartPunctuation) }
    return options
  }

  /// The render options this example asks for.
  var renderOptions: HTMLRenderer.Options {
    var options: HTMLRenderer.Options = []
    if self.options.contains("unsafe") { options.insert(.unsafe) }
    if self.options.contains("table-prefer-style-attributes") { options.insert(.tablePreferStyleAttributes) }
    if self.options.contains("full-info-string") { options.insert(.fullInfoString) }
    return options
  }
}
