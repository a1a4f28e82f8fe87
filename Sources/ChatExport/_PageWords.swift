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
    backToContent: "Back to content")

  static let german = _PageWords(
    you: "Du", assistant: "Assistent", conversation: "Unterhaltung", oneMessage: "1 Nachricht",
    messages: "%d Nachrichten", noMessages: "Diese Unterhaltung enthält keine Nachrichten.",
    exported: "Exportiert am %@", model: "Modell: %@", stopped: "Angehalten",
    didNotFinish: "Diese Antwort wurde nicht fertig.", actions: "Aktionen", copy: "Kopieren", copied: "Kopiert",
    copyCode: "Code kopieren", share: "Teilen", copyMarkdown: "Als Markdown kopieren", copyLink: "Link kopieren",
    copyConversation: "Unterhaltung kopieren", downloadMarkdown: ".md herunterladen", ratedGood: "Als gut bewertet",
    ratedBad: "Als schlecht bewertet", jumpToLatest: "Zur neuesten Nachricht", table: "Tabelle", image: "Bild",
    backToContent: "Zurück zum Text")

  static let french = _PageWords(
    you: "Vous", assistant: "Assistant", conversation: "Conversation", oneMessage: "1 message",
    messages: "%d messages", noMessages: "Aucun message dans cette conversation.", exported: "Exporté le %@",
    model: "Modèle : %@", stopped: "Arrêtée", didNotFinish: "Cette réponse n’a pas abouti.", actions: "Actions",
    copy: "Copier", copied: "Copié", copyCode: "Copier le code", share: "Partager", copyMarkdown: "Copier en Markdown",
    copyLink: "Copier le lien", copyConversation: "Copier la conversation", downloadMarkdown: "Télécharger le .md",
    ratedGood: "Jugée bonne", ratedBad: "Jugée mauvaise", jumpToLatest: "Aller au plus récent", table: "Tableau",
    image: "Image", backToContent: "Retour au texte")

  static let spanish = _PageWords(
    you: "Tú", assistant: "Asistente", conversation: "Conversación", oneMessage: "1 mensaje",
    messages: "%d mensajes", noMessages: "No hay mensajes en esta conversación.", exported: "Exportado el %@",
    model: "Modelo: %@", stopped: "Detenida", didNotFinish: "Esta respuesta no terminó.", actions: "Acciones",
    copy: "Copiar", copied: "Copiado", copyCode: "Copiar código", share: "Compartir",
    copyMarkdown: "Copiar como Markdown", copyLink: "Copiar enlace", copyConversation: "Copiar conversación",
    downloadMarkdown: "Descargar .md", ratedGood: "Valorada como buena", ratedBad: "Valorada como mala",
    jumpToLatest: "Ir a lo más reciente", table: "Tabla", image: "Imagen", backToContent: "Volver al texto")
}
