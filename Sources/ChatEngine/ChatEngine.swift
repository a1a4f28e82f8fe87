@_exported import ReplyMarkdown
