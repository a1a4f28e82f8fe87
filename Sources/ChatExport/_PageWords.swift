/// The words of the page in one language: what the markup prints and what the script shows
/// (the script reads its share from the data block, so its text never depends on the language).
struct _PageWords: Sendable, Hashable, Encodable {
  var you: String
  var assistant: String
  var conversation: String
  var oneMessage: String
  /// `%d` stands for the count.
  var messages: String
  var noMessages: String
  /// `%@` stands for the date.
  var exported: String
  /// `%@` stands for the model's name.
  var model: String
  var stopped: String
  var didNotFinish: String
  var actions: String
  var copy: String
  var copied: String
  var copyCode: String
  var share: String
  var copyMarkdown: String
  var copyLink: String
  var copyConversation: String
  var downloadMarkdown: String
  var ratedGood: String
  var ratedBad: String
  var jumpToLatest: String
  var table: String
  var image: String
  var backToContent: String
  /// `%1$d` stands for the version's number, `%2$d` for the number of versions.
  var versionOf: String
  var oneOtherVersion: String
  /// `%d` stands for the count.
  var otherVersions: String
  /// A reply that was still arriving, in the conversation's markdown.
  var streaming: String
  /// `%@` stands for the reason, in the conversation's markdown.
  var failed: String

  /// `Version 2 of 3`.
  func version(_ number: Int, of count: Int) -> String {
    versionOf.replacingOccurrences(of: "%1$d", with: String(number)).replacingOccurrences(
      of: "%2$d", with: String(count))
  }

  /// `otherVersions` with the count, or `oneOtherVersion`.
  func otherVersions(_ count: Int) -> String {
    count == 1 ? oneOtherVersion : otherVersions.replacingOccurrences(of: "%d", with: String(count))
  }

  /// The labels of the conversation's markdown ("Copy conversation", "Download .md").
  var markdownLabels: ThreadExport.Labels {
    ThreadExport.Labels(
      you: you, assistant: assistant, stopped: stopped, streaming: streaming, failed: failed)
  }

  /// `messages` with the count, or `oneMessage`.
  func count(_ count: Int) -> String {
    count == 1 ? oneMessage : messages.replacingOccurrences(of: "%d", with: String(count))
  }

  static let english = _PageWords(
    you: "You", assistant: "Assistant", conversation: "Conversation", oneMessage: "1 message",
    messages: "%d messages", noMessages: "No messages in this conversation.", exported: "Exported %@",
    model: "Model: %@", stopped: "Stopped", didNotFinish: "This reply didn't finish.", actions: "Actions",
    copy: "Copy", copied: "Copied", copyCode: "Copy code", share: "Share", copyMarkdown: "Copy as markdown",
    copyLink: "Copy link", copyConversation: "Copy conversation", downloadMarkdown: "Download .md",
    ratedGood: "Rated good", ratedBad: "Rated bad", jumpToLatest: "Jump to latest", table: "Table", image: "Image",
    backToContent: "Back to content", versionOf: "Version %1$d of %2$d", oneOtherVersion: "1 other version",
    otherVersions: "%d other versions", streaming: "Streaming", failed: "Failed: %@")

  static let german = _PageWords(
    you: "Du", assistant: "Assistent", conversation: "Unterhaltung", oneMessage: "1 Nachricht",
    messages: "%d Nachrichten", noMessages: "Diese Unterhaltung enthält keine Nachrichten.",
    exported: "Exportiert am %@", model: "Modell: %@", stopped: "Angehalten",
    didNotFinish: "Diese Antwort wurde nicht fertig.", actions: "Aktionen", copy: "Kopieren", copied: "Kopiert",
    copyCode: "Code kopieren", share: "Teilen", copyMarkdown: "Als Markdown kopieren", copyLink: "Link kopieren",
    copyConversation: "Unterhaltung kopieren", downloadMarkdown: ".md herunterladen", ratedGood: "Als gut bewertet",
    ratedBad: "Als schlecht bewertet", jumpToLatest: "Zur neuesten Nachricht", table: "Tabelle", image: "Bild",
    backToContent: "Zurück zum Text", versionOf: "Version %1$d von %2$d", oneOtherVersion: "1 weitere Version",
    otherVersions: "%d weitere Versionen", streaming: "Unvollständig", failed: "Fehlgeschlagen: %@")

  static let french = _PageWords(
    you: "Vous", assistant: "Assistant", conversation: "Conversation", oneMessage: "1 message",
    messages: "%d messages", noMessages: "Aucun message dans cette conversation.", exported: "Exporté le %@",
    model: "Modèle : %@", stopped: "Arrêtée", didNotFinish: "Cette réponse n’a pas abouti.", actions: "Actions",
    copy: "Copier", copied: "Copié", copyCode: "Copier le code", share: "Partager", copyMarkdown: "Copier en Markdown",
    copyLink: "Copier le lien", copyConversation: "Copier la conversation", downloadMarkdown: "Télécharger le .md",
    ratedGood: "Jugée bonne", ratedBad: "Jugée mauvaise", jumpToLatest: "Aller au plus récent", table: "Tableau",
    image: "Image", backToContent: "Retour au texte", versionOf: "Version %1$d sur %2$d",
    oneOtherVersion: "1 autre version", otherVersions: "%d autres versions", streaming: "Incomplète",
    failed: "Échec : %@")

  static let spanish = _PageWords(
    you: "Tú", assistant: "Asistente", conversation: "Conversación", oneMessage: "1 mensaje",
    messages: "%d mensajes", noMessages: "No hay mensajes en esta conversación.", exported: "Exportado el %@",
    model: "Modelo: %@", stopped: "Detenida", didNotFinish: "Esta respuesta no terminó.", actions: "Acciones",
    copy: "Copiar", copied: "Copiado", copyCode: "Copiar código", share: "Compartir",
    copyMarkdown: "Copiar como Markdown", copyLink: "Copiar enlace", copyConversation: "Copiar conversación",
    downloadMarkdown: "Descargar .md", ratedGood: "Valorada como buena", ratedBad: "Valorada como mala",
    jumpToLatest: "Ir a lo más reciente", table: "Tabla", image: "Imagen", backToContent: "Volver al texto",
    versionOf: "Versión %1$d de %2$d", oneOtherVersion: "1 versión más", otherVersions: "%d versiones más",
    streaming: "Incompleta", failed: "Falló: %@")
}
