/// The archive's top level: `{"messages": [...]}`.
struct _ArchiveFile: Codable {
  var messages: [_ArchiveMessage]
}
