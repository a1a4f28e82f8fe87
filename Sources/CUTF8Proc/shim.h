// Shim over the system utf8proc, used for display widths and grapheme cluster breaks.
#ifndef REPLYKIT_UTF8PROC_SHIM_H
#define REPLYKIT_UTF8PROC_SHIM_H
#include <utf8proc.h>
#endif
