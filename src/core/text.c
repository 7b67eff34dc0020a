/* text.c - the translator hook of text.h: core's messages in the user's
 * language without core knowing of gettext. */
#include "text.h"

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static TextTranslator translator;

void text_set_translator(TextTranslator translate)
{
    translator = translate;
}

const char *text_translate(const char *msgid)
{
    return translator ? translator(msgid) : msgid;
}

static char decimal_point[8] = ".";

void text_set_decimal_point(const char *point)
{
    if (point && point[0] && strlen(point) < sizeof decimal_point)
        memcpy(decimal_point, point, strlen(point) + 1);
}

const char *text_decimal_point(void)
{
    return decimal_point;
}

void text_decimals(char *text, size_t text_size)
{
    size_t point_length = strlen(decimal_point);
    if (point_length == 1 && decimal_point[0] == '.')
        return;
    size_t length = strnlen(text, text_size);
    for (size_t i = 1; i + 1 < length; i++) {
        if (text[i] != '.' || text[i - 1] < '0' || text[i - 1] > '9' || text[i + 1] < '0' || text[i + 1] > '9')
            continue;
        if (length + point_length - 1 >= text_size)
            return;
        memmove(text + i + point_length, text + i + 1, length - i);
        memcpy(text + i, decimal_point, point_length);
        length += point_length - 1;
        i += point_length - 1;
    }
}

int text_is_control(unsigned cp)
{
    return (cp < 0x20 && cp != '\t') || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

/* The code point of the UTF-8 character at s (at most n bytes) and its
 * length; 0 where it is not one. */
static size_t utf8_at(const unsigned char *s, size_t n, unsigned *cp)
{
    unsigned c = s[0];
    size_t extra;
    unsigned min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        extra = 1, min = 0x80, c &= 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        extra = 2, min = 0x800, c &= 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        extra = 3, min = 0x10000, c &= 0x07;
    } else {
        return 0;
    }
    if (extra >= n)
        return 0;
    for (size_t k = 1; k <= extra; k++) {
        if ((s[k] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[k] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return extra + 1;
}

void text_escape_controls(const char *in, char *out, size_t out_size)
{
    if (out_size == 0)
        return;
    const unsigned char *s = (const unsigned char *)in;
    size_t n = strlen(in), used = 0;
    for (size_t i = 0; i < n;) {
        unsigned cp = 0;
        size_t length = utf8_at(s + i, n - i, &cp);
        char piece[12];
        size_t piece_length;
        if (length == 0) {
            piece_length = (size_t)snprintf(piece, sizeof piece, "\\x%02x", s[i]);
            length = 1;
        } else if (text_is_control(cp)) {
            piece_length = (size_t)(cp < 0x100 ? snprintf(piece, sizeof piece, "\\x%02x", cp)
                                               : snprintf(piece, sizeof piece, "\\u%04x", cp));
        } else {
            memcpy(piece, s + i, length);
            piece_length = length;
        }
        if (used + piece_length >= out_size)
            break;
        memcpy(out + used, piece, piece_length);
        used += piece_length;
        i += length;
    }
    out[used] = '\0';
}

static bool same(char a, char b)
{
    return tolower((unsigned char)a) == tolower((unsigned char)b);
}

/* Edit distance counting a swap of two neighbours as one edit (optimal
 * string alignment), letters compared without case. */
static int edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 63 || m > 63)
        return 99;
    int d[64][64];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int best = d[i - 1][j - 1] + !same(a[i - 1], b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]) && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *text_suggest(const char *word, const char *const *names, int count)
{
    const char *best = NULL;
    int best_distance = 99;
    for (int i = 0; i < count; i++) {
        if (!names[i])
            continue;
        int d = edit_distance(word, names[i]);
        if (d < best_distance) {
            best_distance = d;
            best = names[i];
        }
    }
    int allowed = (int)strlen(word) / 3;
    if (allowed < 1)
        allowed = 1;
    if (allowed > 3)
        allowed = 3;
    return best_distance <= allowed ? best : NULL;
}
