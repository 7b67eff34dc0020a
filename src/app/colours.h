/* colours.h - which terminal colour each palette entry becomes, and what a
 * terminal says of its background.
 *
 * No curses here (tui_draw.c applies the result), so that the choice can be
 * tested against the colours a terminal shows: tests/app/test_colours.c
 * computes the WCAG contrast of every text colour on xterm's own values.
 *
 * The background: --background=dark|light, or auto: COLORFGBG (set by rxvt,
 * Konsole and others, "15;0": white on black), else the reply to the OSC 11
 * query (xterm, VTE terminals, iTerm2, kitty, tmux 3.3 and later), else dark.
 */
#ifndef CLOTHSIM_COLOURS_H
#define CLOTHSIM_COLOURS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render/canvas.h"

/* What --background asks for. */
typedef enum Background { BACKGROUND_AUTO, BACKGROUND_DARK, BACKGROUND_LIGHT } Background;
extern const char *const background_names[]; /* "auto", "dark", "light", NULL */

/* A terminal colour for a palette entry. */
typedef struct TermColour {
    short colour;   /* 0..255 (xterm's numbering), or -1: the terminal's own */
    bool bold;      /* 8 colours: the bright half is had with bold */
    bool dim;       /* 8 colours: a dark shade with dim */
    bool drop_bold; /* bold would brighten this colour (xterm's boldColors maps
                       0..7 to 8..15) and on a light background bright is pale:
                       cells of this colour are drawn without bold */
} TermColour;

/* The terminal colour of palette entry index (0..PALETTE_COUNT-1) on a
 * terminal of colours colours (8, 16 or 256). PALETTE_DEFAULT and
 * PALETTE_TEXT are the terminal's own colour on every background. */
TermColour colours_map(int index, int colours, PaletteBackground background, bool high_contrast);

/* The background COLORFGBG names: its last field ("0;15", "0;default;15")
 * is one of the 16 colours, 7 and 9..15 light, 0..6 and 8 dark. False when
 * value is NULL, that field is "default", or anything is malformed. */
bool colours_parse_colorfgbg(const char *value, PaletteBackground *background);

/* The colour in a reply to OSC 11 (ESC ] 11 ; ? ST): ESC ] 11 ; rgb:R/G/B
 * (or rgba:R/G/B/A) ended by BEL or ESC \, each channel 1 to 4 hex digits,
 * anywhere in the length bytes of text (other replies may stand around it).
 * False, *rgb untouched, if there is no whole well-formed reply. */
bool colours_parse_osc11(const char *text, size_t length, uint32_t *rgb);

/* Light if black text on it has more contrast than white text (relative
 * luminance above about 0.18). */
PaletteBackground colours_background_of(uint32_t rgb);

#endif
