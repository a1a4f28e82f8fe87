import ReplyMarkdown
for n in MarkdownDocument("Hi[^a-note].\n\n[^a-note]: the note\n").nodes { print(n.kind, n.range as Any) }
