/* tui_text.h - text on a canvas by display width (tui_text.c): wcwidth
 * decides, so a CJK character takes two cells and a combining mark none.
 * No curses and no Tui: the status line, the panel, the help and the
 * lessons' narration all put their words through these. */
#ifndef CLOTHSIM_TUI_TEXT_H
#define CLOTHSIM_TUI_TEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "render/canvas.h"

/* Cells a code point takes: wcwidth, and one for what it does not know (the
 * C locale knows nothing past ASCII; tui_blit then shows '?', one cell). */
int tui_glyph_cells(uint32_t code_point);
/* The cells utf8 takes. */
int tui_text_cells(const char *utf8);
/* utf8 written from x on row y, clipped before column limit; returns the
 * column after it. */
int tui_text_put(Canvas *canvas, int x, int y, int limit, const char *utf8, uint8_t fg, uint8_t attr);
/* The same, but text that does not fit ends in an ellipsis ("..." if ascii)
 * within limit instead of stopping short without a sign. */
int tui_text_put_fitted(Canvas *canvas, int x, int y, int limit, const char *utf8, uint8_t fg, uint8_t attr,
                        bool ascii);

#endif
