/* colours.c - palette entries to terminal colours; COLORFGBG and OSC 11. */
#include "colours.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const background_names[] = {"auto", "dark", "light", NULL};

/* xterm's eight basic colours, as curses numbers them */
enum { BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE };

static int channel(uint32_t rgb, int shift)
{
    return (int)((rgb >> shift) & 0xFF);
}

static int square(int v)
{
    return v * v;
}

/* The nearest colour of the xterm 256-colour cube or grey ramp. */
static short nearest_256(uint32_t rgb)
{
    static const int level[6] = {0, 95, 135, 175, 215, 255};
    int r = channel(rgb, 16), g = channel(rgb, 8), b = channel(rgb, 0);
    int best = 16, best_distance = 1 << 30;
    for (int i = 0; i < 216; i++) {
        int d = square(level[i / 36] - r) + square(level[(i / 6) % 6] - g) + square(level[i % 6] - b);
        if (d < best_distance)
            best = 16 + i, best_distance = d;
    }
    for (int i = 0; i < 24; i++) {
        int grey = 8 + 10 * i;
        int d = square(grey - r) + square(grey - g) + square(grey - b);
        if (d < best_distance)
            best = 232 + i, best_distance = d;
    }
    return (short)best;
}

/* The nearest of the eight basic colours by hue, and the brightness as an
 * attribute (8 colours) or as the bright half of 16. Nearest by plain
 * distance would turn every dark shade into black, unseen on black. On a
 * light background greys go to black (or xterm's grey, 8) and nothing is
 * dimmed: dim moves a colour towards the background. */
static TermColour nearest_basic(uint32_t rgb, bool sixteen, bool light)
{
    int r = channel(rgb, 16), g = channel(rgb, 8), b = channel(rgb, 0);
    int high = r > g ? (r > b ? r : b) : (g > b ? g : b);
    int low = r < g ? (r < b ? r : b) : (g < b ? g : b);
    TermColour out = {.colour = light ? BLACK : WHITE};
    if (high - low >= 40) {
        /* hue: the corner of the colour cube nearest the colour scaled to
         * full brightness; a light background's pale tints with their grey
         * taken out first (ff8787 is a pink, not a yellow) */
        double grey = light ? low : 0.0, span = high - grey;
        double best = 1e30;
        for (short c = 1; c < 7; c++) {
            double cr = (c & 1) ? 1.0 : 0.0, cg = (c & 2) ? 1.0 : 0.0, cb = (c & 4) ? 1.0 : 0.0;
            double dr = (r - grey) / span - cr, dg = (g - grey) / span - cg, db = (b - grey) / span - cb;
            double d = dr * dr + dg * dg + db * db;
            if (d < best)
                best = d, out.colour = c;
        }
    } else if (light && high >= 110 && sixteen) {
        out.colour = 8; /* a pale grey: xterm's grey, 7f7f7f */
        return out;
    } else if (light) {
        return out;
    }
    if (light) {
        if (out.colour == YELLOW)
            out.colour = RED; /* cdcd00 is 1.7:1 on white; the strain ramp's upper half turns red */
        if (sixteen && high > 200 && low >= 80)
            out.colour = (short)(out.colour + 8); /* a pale tint: the bright half */
        return out;
    }
    if (high < 110)
        out.dim = true;
    else if (high > 200) {
        if (sixteen)
            out.colour = (short)(out.colour + 8);
        else
            out.bold = true;
    }
    return out;
}

TermColour colours_map(int index, int colours, PaletteBackground background, bool high_contrast)
{
    TermColour out = {.colour = -1};
    if (index <= PALETTE_DEFAULT || index >= PALETTE_COUNT || index == PALETTE_TEXT)
        return out; /* text in the terminal's own colour reads best on any background */
    bool light = background == PALETTE_ON_LIGHT;
    uint32_t rgb = palette_colour(index, background, high_contrast);
    if (!light && colours < 256 && index >= PALETTE_FRONT_0 && index <= PALETTE_BACK_5) {
        /* the cloth on a dark background in 8 or 16 colours: red for the
         * front, cyan for the back (xterm's are 4.2:1 and 9.6:1 on black;
         * blue is 2.2:1), the lit two shades bright (yellow at the front's
         * top); never dim, which a dark theme shows at 1.5:1 */
        int shade = (index - PALETTE_FRONT_0) % PALETTE_SHADES;
        bool front = index < PALETTE_BACK_0, lit = shade >= PALETTE_SHADES - 2;
        out.colour = front ? (shade == PALETTE_SHADES - 1 ? YELLOW : RED) : CYAN;
        if (lit && colours >= 16)
            out.colour = (short)(out.colour + 8);
        else if (lit)
            out.bold = true;
        return out;
    }
    if (colours >= 256)
        out.colour = nearest_256(rgb);
    else if (light && index == PALETTE_HIGHLIGHT)
        out.colour = BLUE; /* on white: 0000ee, 9.4:1; yellow and its kin vanish */
    else if (light && index == PALETTE_DIM)
        out.colour = BLACK; /* xterm's grey (7f7f7f) is 4.0:1 on white: too faint to read */
    else if (light && index == PALETTE_STRAIN_WARN)
        out.colour = MAGENTA; /* cd00cd, 4.7:1, and not the red of the strain ramp's top */
    else
        out = nearest_basic(rgb, colours >= 16, light);
    out.drop_bold = light && colours < 256 && out.colour >= 0 && out.colour < 8;
    return out;
}

/* ---------------------------------------------------------------- the background */

bool colours_parse_colorfgbg(const char *value, PaletteBackground *background)
{
    if (!value || !*value)
        return false;
    const char *last = strrchr(value, ';');
    if (!last || last == value)
        return false; /* one field is no pair */
    last++;
    size_t digits = strspn(last, "0123456789");
    if (digits == 0 || digits > 2 || last[digits] != '\0')
        return false; /* "default", empty, or garbage */
    int colour = atoi(last);
    if (colour > 15)
        return false;
    /* the fields before must be numbers or "default" too */
    for (const char *p = value; p < last;) {
        size_t n = strcspn(p, ";");
        bool number = n > 0 && n <= 3 && strspn(p, "0123456789") == n;
        if (!number && !(n == 7 && strncmp(p, "default", 7) == 0))
            return false;
        p += n + 1;
    }
    *background = colour == 7 || colour >= 9 ? PALETTE_ON_LIGHT : PALETTE_ON_DARK;
    return true;
}

static int hex_value(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* One channel of 1 to 4 hex digits at *p, scaled to 0..255; advances *p. */
static bool hex_channel(const char **p, const char *end, int *value)
{
    int digits = 0;
    unsigned long v = 0;
    while (*p < end && hex_value(**p) >= 0) {
        if (++digits > 4)
            return false;
        v = v * 16 + (unsigned long)hex_value(**p);
        (*p)++;
    }
    if (digits == 0)
        return false;
    unsigned long full = (1UL << (4 * digits)) - 1;
    *value = (int)((v * 255 + full / 2) / full);
    return true;
}

/* The reply starting at text[0] == ESC, ending before end. */
static bool parse_reply(const char *p, const char *end, uint32_t *rgb)
{
    static const char head[] = "\033]11;";
    size_t head_length = sizeof head - 1;
    if ((size_t)(end - p) < head_length || memcmp(p, head, head_length) != 0)
        return false;
    p += head_length;
    int channels = 3;
    if (end - p >= 5 && memcmp(p, "rgba:", 5) == 0)
        p += 5, channels = 4;
    else if (end - p >= 4 && memcmp(p, "rgb:", 4) == 0)
        p += 4;
    else
        return false;
    int value[4];
    for (int k = 0; k < channels; k++) {
        if (k > 0) {
            if (p >= end || *p != '/')
                return false;
            p++;
        }
        if (!hex_channel(&p, end, &value[k]))
            return false;
    }
    bool ended = (p < end && *p == '\a') || (end - p >= 2 && p[0] == '\033' && p[1] == '\\');
    if (!ended)
        return false;
    *rgb = (uint32_t)value[0] << 16 | (uint32_t)value[1] << 8 | (uint32_t)value[2];
    return true;
}

bool colours_parse_osc11(const char *text, size_t length, uint32_t *rgb)
{
    const char *end = text + length;
    for (const char *p = text; p < end; p++)
        if (*p == '\033' && parse_reply(p, end, rgb))
            return true;
    return false;
}

static double linear(int c)
{
    double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

PaletteBackground colours_background_of(uint32_t rgb)
{
    double luminance =
        0.2126 * linear(channel(rgb, 16)) + 0.7152 * linear(channel(rgb, 8)) + 0.0722 * linear(channel(rgb, 0));
    /* contrast with black (L + 0.05) / 0.05 against with white 1.05 / (L + 0.05) */
    return (luminance + 0.05) * (luminance + 0.05) > 1.05 * 0.05 ? PALETTE_ON_LIGHT : PALETTE_ON_DARK;
}
