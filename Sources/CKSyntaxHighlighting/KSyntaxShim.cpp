// The C interface of CKSyntaxHighlighting.h over KSyntaxHighlighting. Every entry point takes the
// one lock: the library's Repository, definitions (loaded lazily on first use) and highlighter are
// not thread-safe.
#include "CKSyntaxHighlighting.h"

#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/AbstractHighlighter>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/Definition>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/Format>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/Repository>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/State>
#include <KF5/KSyntaxHighlighting/KSyntaxHighlighting/Theme>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace KSH = KSyntaxHighlighting;

struct cksh_state {
  KSH::State state;
};

namespace {

constexpr int textStyleCount = KSH::Theme::Others + 1;

uint32_t rgb(QRgb color) { return static_cast<uint32_t>(color) & 0xFFFFFFu; }

/// Collects the formats of one line as spans, with offsets mapped from UTF-16 to UTF-8.
class SpanCollector final : public KSH::AbstractHighlighter {
public:
  std::vector<cksh_span> spans;
  /// UTF-8 offset of each UTF-16 index of the line, and one past the end.
  std::vector<uint32_t> utf8Offsets;
  KSH::Theme styleTheme;
  /// The index of `styleTheme` among the library's themes (part of the cache key).
  int themeIndex = -1;

  KSH::State run(const QString &text, const KSH::State &state) { return highlightLine(text, state); }

protected:
  void applyFormat(int offset, int length, const KSH::Format &format) override {
    if (length <= 0 || offset < 0) return;
    const size_t limit = utf8Offsets.size() - 1;
    size_t start = std::min(static_cast<size_t>(offset), limit);
    size_t end = std::min(static_cast<size_t>(offset) + static_cast<size_t>(length), limit);
    if (end <= start) return;
    cksh_span span = styled(format);
    span.offset = utf8Offsets[start];
    span.length = utf8Offsets[end] - utf8Offsets[start];
    spans.push_back(span);
  }

private:
  /// The text style and theme style of each format met, by theme and format id (ids are unique
  /// in the repository): six theme lookups once per format instead of once per span.
  std::unordered_map<uint64_t, cksh_span> styles;

  cksh_span styled(const KSH::Format &format) {
    const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(themeIndex)) << 32) | format.id();
    if (const auto found = styles.find(key); found != styles.end()) return found->second;
    cksh_span span{};
    span.text_style = static_cast<uint32_t>(format.textStyle());
    const KSH::Theme &theme = styleTheme;
    if (format.hasTextColor(theme)) {
      span.style.flags |= CKSH_HAS_FOREGROUND;
      span.style.foreground = rgb(format.textColor(theme).rgb());
    }
    if (format.hasBackgroundColor(theme)) {
      span.style.flags |= CKSH_HAS_BACKGROUND;
      span.style.background = rgb(format.backgroundColor(theme).rgb());
    }
    if (format.isBold(theme)) span.style.flags |= CKSH_BOLD;
    if (format.isItalic(theme)) span.style.flags |= CKSH_ITALIC;
    if (format.isUnderline(theme)) span.style.flags |= CKSH_UNDERLINE;
    if (format.isStrikeThrough(theme)) span.style.flags |= CKSH_STRIKETHROUGH;
    styles.emplace(key, span);
    return span;
  }
};

struct Library {
  std::mutex lock;
  KSH::Repository repository;
  std::vector<KSH::Definition> definitions;
  std::vector<KSH::Theme> themes;
  SpanCollector highlighter;

  Library() {
    const auto all = repository.definitions();
    definitions.assign(all.begin(), all.end());
    const auto allThemes = repository.themes();
    themes.assign(allThemes.begin(), allThemes.end());
  }

  bool validDefinition(int index) const { return index >= 0 && static_cast<size_t>(index) < definitions.size(); }
  bool validTheme(int index) const { return index >= 0 && static_cast<size_t>(index) < themes.size(); }
};

/// The library, opened once (C++ static initialisation is thread-safe).
Library &library() {
  static Library *shared = new Library();  // never destroyed: no teardown order at exit
  return *shared;
}

char *copy(const QString &string) {
  const QByteArray bytes = string.toUtf8();
  char *result = static_cast<char *>(std::malloc(static_cast<size_t>(bytes.size()) + 1));
  if (result == nullptr) return nullptr;
  std::memcpy(result, bytes.constData(), static_cast<size_t>(bytes.size()));
  result[bytes.size()] = 0;
  return result;
}

/// The UTF-8 offset of each UTF-16 index of valid UTF-8 `bytes` (a 4-byte sequence is two
/// UTF-16 units; its second maps to the sequence's end), and one past the end.
void mapOffsets(const unsigned char *bytes, size_t length, std::vector<uint32_t> &out) {
  out.clear();
  out.reserve(length + 1);
  size_t index = 0;
  while (index < length) {
    const unsigned char lead = bytes[index];
    size_t width = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    if (index + width > length) width = length - index;
    out.push_back(static_cast<uint32_t>(index));
    if (width == 4) out.push_back(static_cast<uint32_t>(index + width));
    index += width;
  }
  out.push_back(static_cast<uint32_t>(length));
}

}  // namespace

extern "C" {

int cksh_definition_count(void) {
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  return static_cast<int>(lib.definitions.size());
}

char *cksh_definition_name(int definition) {
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  if (!lib.validDefinition(definition)) return nullptr;
  return copy(lib.definitions[static_cast<size_t>(definition)].name());
}

char *cksh_definition_patterns(int definition) {
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  if (!lib.validDefinition(definition)) return nullptr;
  QStringList patterns;
  for (const QString &pattern : lib.definitions[static_cast<size_t>(definition)].extensions()) patterns << pattern;
  return copy(patterns.join(QLatin1Char(';')));
}

int cksh_definition_priority(int definition) {
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  if (!lib.validDefinition(definition)) return 0;
  return lib.definitions[static_cast<size_t>(definition)].priority();
}

int cksh_definition_is_hidden(int definition) {
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  if (!lib.validDefinition(definition)) return 1;
  return lib.definitions[static_cast<size_t>(definition)].isHidden() ? 1 : 0;
}

int cksh_theme_count(void) {
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  return static_cast<int>(lib.themes.size());
}

char *cksh_theme_name(int theme) {
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  if (!lib.validTheme(theme)) return nullptr;
  return copy(lib.themes[static_cast<size_t>(theme)].name());
}

int cksh_theme_index(const char *name) {
  if (name == nullptr) return -1;
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  const QString wanted = QString::fromUtf8(name);
  for (size_t index = 0; index < lib.themes.size(); ++index) {
    if (lib.themes[index].name() == wanted) return static_cast<int>(index);
  }
  return -1;
}

int cksh_theme_default(int dark) {
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  const KSH::Theme wanted =
      lib.repository.defaultTheme(dark ? KSH::Repository::DarkTheme : KSH::Repository::LightTheme);
  for (size_t index = 0; index < lib.themes.size(); ++index) {
    if (lib.themes[index].name() == wanted.name()) return static_cast<int>(index);
  }
  return lib.themes.empty() ? -1 : 0;
}

int cksh_theme_style(int theme, int text_style, cksh_style *out) {
  if (out == nullptr || text_style < 0 || text_style >= textStyleCount) return 0;
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  if (!lib.validTheme(theme)) return 0;
  const KSH::Theme &value = lib.themes[static_cast<size_t>(theme)];
  const auto style = static_cast<KSH::Theme::TextStyle>(text_style);
  *out = cksh_style{};
  if (const QRgb color = value.textColor(style); color != 0) {
    out->flags |= CKSH_HAS_FOREGROUND;
    out->foreground = rgb(color);
  }
  if (const QRgb color = value.backgroundColor(style); color != 0) {
    out->flags |= CKSH_HAS_BACKGROUND;
    out->background = rgb(color);
  }
  if (value.isBold(style)) out->flags |= CKSH_BOLD;
  if (value.isItalic(style)) out->flags |= CKSH_ITALIC;
  if (value.isUnderline(style)) out->flags |= CKSH_UNDERLINE;
  if (value.isStrikeThrough(style)) out->flags |= CKSH_STRIKETHROUGH;
  return 1;
}

uint32_t cksh_theme_background(int theme) {
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  if (!lib.validTheme(theme)) return 0;
  return rgb(lib.themes[static_cast<size_t>(theme)].editorColor(KSH::Theme::BackgroundColor));
}

int cksh_highlight_line(
    int definition, int theme, const char *utf8, size_t length, const cksh_state *previous,
    cksh_state **next, cksh_span **spans, size_t *count) {
  if (next == nullptr || spans == nullptr || count == nullptr) return 0;
  *next = nullptr;
  *spans = nullptr;
  *count = 0;
  if (utf8 == nullptr && length > 0) return 0;
  if (length > 0x7FFFFFFFu) return 0;
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  if (!lib.validDefinition(definition) || !lib.validTheme(theme)) return 0;
  SpanCollector &highlighter = lib.highlighter;
  const KSH::Definition &wanted = lib.definitions[static_cast<size_t>(definition)];
  if (highlighter.definition() != wanted) highlighter.setDefinition(wanted);
  if (highlighter.themeIndex != theme) {
    highlighter.styleTheme = lib.themes[static_cast<size_t>(theme)];
    highlighter.themeIndex = theme;
  }
  highlighter.spans.clear();
  const auto *bytes = reinterpret_cast<const unsigned char *>(utf8);
  mapOffsets(bytes, length, highlighter.utf8Offsets);
  const QString text = QString::fromUtf8(utf8, static_cast<int>(length));
  // A mapping that does not fit the decoded text (the input was not valid UTF-8) would misplace
  // spans: the line is then given no spans.
  const bool mapped = highlighter.utf8Offsets.size() == static_cast<size_t>(text.size()) + 1;
  const KSH::State after = highlighter.run(text, previous == nullptr ? KSH::State() : previous->state);
  if (!mapped) highlighter.spans.clear();
  auto *state = new (std::nothrow) cksh_state{after};
  if (state == nullptr) return 0;
  if (!highlighter.spans.empty()) {
    const size_t size = highlighter.spans.size() * sizeof(cksh_span);
    auto *array = static_cast<cksh_span *>(std::malloc(size));
    if (array == nullptr) {
      delete state;
      return 0;
    }
    std::memcpy(array, highlighter.spans.data(), size);
    *spans = array;
    *count = highlighter.spans.size();
  }
  *next = state;
  return 1;
}

int cksh_state_equal(const cksh_state *a, const cksh_state *b) {
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  const KSH::State empty;
  return (a == nullptr ? empty : a->state) == (b == nullptr ? empty : b->state) ? 1 : 0;
}

void cksh_state_free(cksh_state *state) {
  if (state == nullptr) return;
  Library &lib = library();
  std::lock_guard<std::mutex> guard(lib.lock);
  delete state;
}

void cksh_free(void *pointer) { std::free(pointer); }

}  // extern "C"

namespace {

/// The preloading threads started so far, joined at exit (before Qt's globals are destroyed:
/// the handler is registered after the library first opened them).
std::mutex preloadsLock;
std::vector<std::thread> *preloads = nullptr;

void joinPreloads() {
  std::lock_guard<std::mutex> guard(preloadsLock);
  if (preloads == nullptr) return;
  for (std::thread &thread : *preloads) {
    if (thread.joinable()) thread.join();
  }
  preloads->clear();
}

}  // namespace

extern "C" void cksh_preload_wait(void) { joinPreloads(); }

extern "C" void cksh_preload(const int *definitions, size_t count) {
  if (definitions == nullptr || count == 0) return;
  std::vector<int> wanted(definitions, definitions + count);
  Library &lib = library();
  std::lock_guard<std::mutex> guard(preloadsLock);
  if (preloads == nullptr) {
    preloads = new std::vector<std::thread>();
    std::atexit(joinPreloads);
  }
  try {
    preloads->emplace_back([wanted = std::move(wanted), &lib] {
      // The whole batch under the library's lock: a highlight call waits for it, then finds
      // the definitions (and those they include) loaded.
      std::lock_guard<std::mutex> libraryGuard(lib.lock);
      SpanCollector &highlighter = lib.highlighter;
      for (int index : wanted) {
        if (!lib.validDefinition(index)) continue;
        const KSH::Definition &definition = lib.definitions[static_cast<size_t>(index)];
        if (highlighter.definition() != definition) highlighter.setDefinition(definition);
        mapOffsets(nullptr, 0, highlighter.utf8Offsets);
        highlighter.run(QString(), KSH::State());
        highlighter.spans.clear();
      }
    });
  } catch (...) {
    // No thread: the definitions load on first use, as without a preload.
  }
}
