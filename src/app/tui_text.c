/* tui_text.c - see tui_text.h. */
#include "tui_text.h"

#include <wchar.h>

int tui_glyph_cells(uint32_t code_point)
{
    if (code_point < 0x7F)
        return code_point < 0x20 ? 0 : 1;
    int width = wcwidth((wchar_t)code_point);
    return width < 0 ? 1 : width;
}

int tui_text_cells(const char *utf8)
{
    int n = 0;
    while (*utf8) {
        uint32_t code_point;
        utf8 += canvas_utf8_decode(utf8, &code_point);
        n += tui_glyph_cells(code_point);
    }
    return n;
}

int tui_text_put(Canvas *canvas, int x, int y, int limit, const char *utf8, uint8_t fg, uint8_t attr)
{
    while (*utf8) {
        uint32_t code_point;
        utf8 += canvas_utf8_decode(utf8, &code_point);
        int width = tui_glyph_cells(code_point);
        if (width == 0)
            continue; /* a combining mark: a cell holds one code point */
        if (x + width > limit)
            break;
        canvas_put(canvas, x, y, code_point, fg, PALETTE_DEFAULT, attr);
        if (width == 2)
            canvas_put(canvas, x + 1, y, ' ', fg, PALETTE_DEFAULT, attr);
        x += width;
    }
    return x;
}

int tui_text_put_fitted(Canvas *canvas, int x, int y, int limit, const char *utf8, uint8_t fg, uint8_t attr, bool ascii)
{
    if (x + tui_text_cells(utf8) <= limit)
        return tui_text_put(canvas, x, y, limit, utf8, fg, attr);
    const char *mark = ascii ? "..." : "\u2026";
    int end = tui_text_put(canvas, x, y, limit - tui_text_cells(mark), utf8, fg, attr);
    while (end > x && canvas_get(canvas, end - 1, y) && canvas_get(canvas, end - 1, y)->glyph == ' ')
        end--; /* "word..." rather than "word ..." */
    for (int k = end; k < limit; k++)
        canvas_put(canvas, k, y, ' ', fg, PALETTE_DEFAULT, ATTR_NONE);
    return tui_text_put(canvas, end, y, limit, mark, fg, attr);
}
