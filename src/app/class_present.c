/* class_present.c - the presenter's screen sent to a class (class present):
 * each frame curses drew, read back from curscr, as runs of cells of one
 * look (class_link.h's ROW lines), for the watchers to draw. */
#include "class_present.h"

#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static int attributes_of(attr_t attributes)
{
    return (attributes & A_BOLD ? CLASS_BOLD : 0) | (attributes & A_DIM ? CLASS_DIM : 0) |
           (attributes & (A_REVERSE | A_STANDOUT) ? CLASS_REVERSE : 0) |
           (attributes & A_UNDERLINE ? CLASS_UNDERLINE : 0);
}

static int colour_of(short colour)
{
    return colour < 0 || colour >= CLASS_COLOUR_DEFAULT ? CLASS_COLOUR_DEFAULT : colour;
}

/* One run of cells of the same look, its TEXT in run: a ROW line of the
 * frame. All blank in the terminal's colours, it is left out (a watcher
 * erases before it draws). */
static void frame_run(ClassLink *link, int y, int x, const int look[3], const char *run, bool blank)
{
    if (!*run || (blank && look[0] == CLASS_COLOUR_DEFAULT && look[1] == CLASS_COLOUR_DEFAULT && !look[2]))
        return;
    size_t room = sizeof link->frame - link->frame_length;
    int n = snprintf(link->frame + link->frame_length, room, "ROW %d %d %d %d %d %s\n", y, x, look[0], look[1], look[2],
                     run);
    if (n > 0 && (size_t)n < room)
        link->frame_length += (size_t)n;
}

void class_present_screen(ClassLink *link, double now)
{
    if (!link || !link->presenter)
        return;
    if (!link->frame_waiting) { /* a frame that waits is still on the screen */
        int rows = getmaxy(curscr), cols = getmaxx(curscr);
        link->frame_length = (size_t)snprintf(link->frame, sizeof link->frame, "FRAME %d %d\n", cols, rows);
        for (int y = 0; y < rows; y++) {
            char run[CLASS_LINE_MAX - 64] = "";
            size_t run_length = 0;
            int look[3] = {0}, x0 = 0;
            bool blank = true;
            for (int x = 0; x < cols; x++) {
                cchar_t cell;
                wchar_t text[CCHARW_MAX + 1] = {0};
                attr_t attributes = 0;
                short pair = 0, fg = -1, bg = -1;
                if (mvwin_wch(curscr, y, x, &cell) == ERR || getcchar(&cell, text, &attributes, &pair, NULL) == ERR)
                    continue;
                if (!text[0])
                    continue; /* the second cell of a wide character */
                pair_content(pair, &fg, &bg);
                int here[3] = {colour_of(fg), colour_of(bg), attributes_of(attributes)};
                char bytes[4 * MB_LEN_MAX + 1], coded[sizeof bytes * 3 + 1];
                size_t length = 0;
                mbstate_t state = {0};
                for (int k = 0; text[k] && k < CCHARW_MAX; k++) {
                    size_t got = wcrtomb(bytes + length, text[k], &state);
                    if (got == (size_t)-1)
                        break;
                    length += got;
                }
                if (!length)
                    bytes[length++] = '?';
                class_text_encode(bytes, length, coded, sizeof coded);
                size_t coded_length = strlen(coded);
                if (run_length && (memcmp(here, look, sizeof look) != 0 || run_length + coded_length >= sizeof run)) {
                    frame_run(link, y, x0, look, run, blank);
                    run_length = 0;
                    run[0] = '\0';
                    blank = true;
                }
                if (!run_length) {
                    x0 = x;
                    memcpy(look, here, sizeof look);
                }
                memcpy(run + run_length, coded, coded_length + 1);
                run_length += coded_length;
                blank = blank && length == 1 && bytes[0] == ' ';
            }
            frame_run(link, y, x0, look, run, blank);
        }
        size_t room = sizeof link->frame - link->frame_length;
        if (room > 5) {
            memcpy(link->frame + link->frame_length, "SHOW\n", 5);
            link->frame_length += 5;
        }
    }
    class_link_frame(link, now);
}
