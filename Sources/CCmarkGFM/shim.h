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

extern cmark_node_type CMARK_NODE_TABLE;
extern cmark_node_type CMARK_NODE_TABLE_ROW;
extern cmark_node_type CMARK_NODE_TABLE_CELL;
extern cmark_node_type CMARK_NODE_STRIKETHROUGH;

static inline cmark_node_type replykit_node_type_table(void) { return CMARK_NODE_TABLE; }
static inline cmark_node_type replykit_node_type_table_row(void) { return CMARK_NODE_TABLE_ROW; }
static inline cmark_node_type replykit_node_type_table_cell(void) { return CMARK_NODE_TABLE_CELL; }
static inline cmark_node_type replykit_node_type_strikethrough(void) { return CMARK_NODE_STRIKETHROUGH; }

#endif
