// Shim over the system cmark-gfm 0.29.0.gfm.6.
//
// The extension node types are exported by libcmark-gfm-extensions but declared in no public
// header, and they only receive their values when the core extensions are registered. Swift 6
// rejects mutable C globals, so they are read through these getters, after registration.
#ifndef REPLYKIT_CMARK_SHIM_H
#define REPLYKIT_CMARK_SHIM_H

#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm/buffer.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern cmark_node_type CMARK_NODE_TABLE;
extern cmark_node_type CMARK_NODE_TABLE_ROW;
extern cmark_node_type CMARK_NODE_TABLE_CELL;
extern cmark_node_type CMARK_NODE_STRIKETHROUGH;

static inline cmark_node_type replykit_node_type_table(void) { return CMARK_NODE_TABLE; }
static inline cmark_node_type replykit_node_type_table_row(void) { return CMARK_NODE_TABLE_ROW; }
static inline cmark_node_type replykit_node_type_table_cell(void) { return CMARK_NODE_TABLE_CELL; }
static inline cmark_node_type replykit_node_type_strikethrough(void) { return CMARK_NODE_STRIKETHROUGH; }

// ReplyKit's parse arena (ParseArena.swift): a bump allocator that cmark-gfm allocates a parse
// from. The allocation path is here, in C, because cmark-gfm calls it for every node, buffer and
// list cell (a Swift closure behind a thunk cost three times as much); chunks are mapped,
// recorded and released by ParseArena in Swift, through `refill`.
//
// The state is one weak global: every translation unit that uses these functions (Swift splits a
// module into several) emits its own copy of the `static inline` functions, and the linker merges
// the weak definitions of the state into one.

/// Where the arena allocates next. Only used while ReplyKit's parser lock is held.
typedef struct replykit_arena {
  /// The next free byte of the current chunk.
  char *cursor;
  /// The end of the current chunk.
  char *end;
  /// In the chunk kept from earlier parses, where the bytes they wrote end: `calloc` zeroes below.
  char *dirty_end;
  /// Makes `cursor..<end` a fresh chunk of at least `needed` bytes, or ends the process.
  void (*refill)(size_t needed);
} replykit_arena;

/// Every block starts with its size, so that `realloc` can copy it.
#define REPLYKIT_ARENA_HEADER 8

__attribute__((weak)) replykit_arena replykit_arena_shared = {0, 0, 0, 0};

static inline replykit_arena *_Nonnull replykit_arena_state(void) { return &replykit_arena_shared; }

/// A block of `size` bytes, 8-byte aligned, not zeroed.
static inline void *_Nonnull replykit_arena_bump(size_t size) {
  replykit_arena *arena = replykit_arena_state();
  // A size this large cannot be mapped: asking for it ends the process in `refill`.
  size_t needed = size > (SIZE_MAX >> 2) ? SIZE_MAX >> 1 : (size + REPLYKIT_ARENA_HEADER + 7) & ~(size_t)7;
  if ((size_t)(arena->end - arena->cursor) < needed) arena->refill(needed);
  char *block = arena->cursor;
  arena->cursor = block + needed;
  *(size_t *)block = size;
  return block + REPLYKIT_ARENA_HEADER;
}

static inline void *replykit_arena_calloc(size_t count, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) return NULL;
  char *block = (char *)replykit_arena_bump(bytes);
  char *dirty_end = replykit_arena_state()->dirty_end;
  // Fresh chunks are zero; only what an earlier parse wrote needs clearing.
  if (block < dirty_end) {
    size_t dirty = (size_t)(dirty_end - block);
    memset(block, 0, bytes < dirty ? bytes : dirty);
  }
  return block;
}

static inline void *replykit_arena_realloc(void *pointer, size_t size) {
  if (pointer == NULL) return replykit_arena_bump(size);
  char *block = (char *)pointer;
  size_t old_size = *(size_t *)(block - REPLYKIT_ARENA_HEADER);
  if (size <= old_size) return pointer;
  // The newest block grows in place when its chunk has room (cmark-gfm's buffers grow by half
  // their size at a time, so copying each step would leave most of the arena as dead copies).
  replykit_arena *arena = replykit_arena_state();
  char *old_end = block + ((old_size + 7) & ~(size_t)7);
  if (old_end == arena->cursor && size <= (SIZE_MAX >> 2)) {
    char *new_end = block + ((size + 7) & ~(size_t)7);
    if (new_end <= arena->end) {
      arena->cursor = new_end;
      *(size_t *)(block - REPLYKIT_ARENA_HEADER) = size;
      return pointer;
    }
  }
  char *fresh = (char *)replykit_arena_bump(size);
  memcpy(fresh, block, old_size);
  return fresh;
}

/// Freeing is a no-op: the whole arena is dropped after the parse.
static inline void replykit_arena_free(void *pointer) { (void)pointer; }

/// The allocator to hand to `cmark_parser_new_with_mem`.
static inline cmark_mem *_Nonnull replykit_arena_allocator(void) {
  static cmark_mem mem = {replykit_arena_calloc, replykit_arena_realloc, replykit_arena_free};
  return &mem;
}

// cmark-gfm's own entity decoder, exported by libcmark-gfm (declared in its houdini.h, whose
// macros are kept out of Swift's view): it decodes an entity as the inline parser does.
extern bufsize_t houdini_unescape_ent(cmark_strbuf *ob, const uint8_t *src, bufsize_t size);

/// Decodes the entity whose `&` is at `source[0]` as cmark-gfm decodes it in text: writes up to
/// `capacity` bytes of its UTF-8 to `out` and returns how many bytes of `source` it spans (with
/// the `&`), or 0 when cmark-gfm reads no entity there (or it decodes to more than `capacity`).
/// `*written` gets the decoded length. Pure: no state, no lock.
static inline int32_t replykit_decode_entity(const uint8_t *_Nonnull source, int32_t size, uint8_t *_Nonnull out,
                                             int32_t capacity, int32_t *_Nonnull written) {
  *written = 0;
  if (size < 2 || source[0] != '&') return 0;
  cmark_strbuf buffer;
  cmark_strbuf_init(cmark_get_default_mem_allocator(), &buffer, 0);
  bufsize_t consumed = houdini_unescape_ent(&buffer, source + 1, size - 1);
  int32_t result = 0;
  if (consumed > 0 && buffer.size <= capacity) {
    memcpy(out, buffer.ptr, (size_t)buffer.size);
    *written = buffer.size;
    result = consumed + 1;
  }
  cmark_strbuf_free(&buffer);
  return result;
}

#endif
