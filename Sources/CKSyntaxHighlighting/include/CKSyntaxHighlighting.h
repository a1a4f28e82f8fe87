// A C interface over KDE's KSyntaxHighlighting (C++, Qt 5), for Swift.
//
// One process-wide repository of syntax definitions and themes is opened on first use and never
// reloaded, so definition and theme indexes stay valid for the life of the process. The C++
// library is not thread-safe; every function here takes one process-wide lock, so any thread may
// call any function at any time.
//
// Strings are UTF-8. Strings returned as `char *` are allocated with malloc; free them with
// `cksh_free`. Offsets and lengths are in UTF-8 bytes of the line given.
#ifndef CKSYNTAXHIGHLIGHTING_H
#define CKSYNTAXHIGHLIGHTING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The state the highlighter is in at the end of a line: an opaque copy, freed with
/// `cksh_state_free`.
typedef struct cksh_state cksh_state;

/// Span flags.
enum {
  CKSH_HAS_FOREGROUND = 1,
  CKSH_HAS_BACKGROUND = 2,
  CKSH_BOLD = 4,
  CKSH_ITALIC = 8,
  CKSH_UNDERLINE = 16,
  CKSH_STRIKETHROUGH = 32,
};

/// A style: colours as 0xRRGGBB, valid when the matching flag is set.
typedef struct cksh_style {
  uint32_t foreground;
  uint32_t background;
  uint32_t flags;
} cksh_style;

/// A run of a line in one format: bytes offset..<offset+length, its default text style (the
/// `KSyntaxHighlighting::Theme::TextStyle` value, 0 = Normal … 30 = Others) and its style in the
/// theme asked for.
typedef struct cksh_span {
  uint32_t offset;
  uint32_t length;
  uint32_t text_style;
  cksh_style style;
} cksh_span;

/// The number of syntax definitions; indexes run from 0.
int cksh_definition_count(void);
/// The definition's name (`Python`, `C++`), or NULL for a bad index.
char *cksh_definition_name(int definition);
/// The definition's file name patterns joined by ';' (`*.py;*.pyw;SConstruct`), or NULL.
char *cksh_definition_patterns(int definition);
/// The definition's priority among definitions for the same file pattern (higher wins).
int cksh_definition_priority(int definition);
/// Whether the definition is hidden: only included by others (`Alerts`, `Doxygen`).
int cksh_definition_is_hidden(int definition);

/// The number of themes; indexes run from 0.
int cksh_theme_count(void);
/// The theme's name (`GitHub Dark`), or NULL for a bad index.
char *cksh_theme_name(int theme);
/// The index of the theme with this exact name, or -1.
int cksh_theme_index(const char *name);
/// The index of the library's default light (dark = 0) or dark (dark != 0) theme.
int cksh_theme_default(int dark);
/// The theme's style for a text style (0 … 30); false for a bad index.
int cksh_theme_style(int theme, int text_style, cksh_style *out);
/// The theme's editor background colour as 0xRRGGBB.
uint32_t cksh_theme_background(int theme);

/// Highlights one line (UTF-8, without its line break) with a definition, starting from the state
/// the previous line left (NULL at the first line of a block), in a theme.
///
/// On success returns 1, sets `*spans` to a malloc'd array of `*count` spans in order (free with
/// `cksh_free`; NULL when there are none) and `*next` to the state after the line (free with
/// `cksh_state_free`). Returns 0 for a bad definition or theme index.
int cksh_highlight_line(
    int definition, int theme, const char *utf8, size_t length, const cksh_state *previous,
    cksh_state **next, cksh_span **spans, size_t *count);

/// Whether two states are the same (NULL is the initial state).
int cksh_state_equal(const cksh_state *a, const cksh_state *b);
/// Frees a state (NULL is ignored).
void cksh_state_free(cksh_state *state);
/// Frees a string or span array returned by this interface.
void cksh_free(void *pointer);

/// Starts loading the definitions at `definitions` (and those they include) on a thread of its
/// own, so their files are read while the caller does other work (parsing the markdown). Highlight
/// calls wait until it is done. Threads still running at exit are joined first.
void cksh_preload(const int *definitions, size_t count);

/// Waits until every preload started so far is done (a program calls it before it exits: a
/// preload still running then would race Qt's teardown).
void cksh_preload_wait(void);

#ifdef __cplusplus
}
#endif

#endif
