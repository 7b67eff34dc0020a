/* tui_draw.h - what the terminal shows (tui_draw.c): the layout of
 * windows and canvases, the colours, the one copy of a canvas to the screen
 * (tui_blit), the status line, the panel, the panes, the help overlay. */
#ifndef CLOTHSIM_TUI_DRAW_H
#define CLOTHSIM_TUI_DRAW_H

#include "tui_state.h"
#include "tui_text.h"

void tui_colours_init(Tui *tui);
/* The colour pairs again for tui->background and high contrast, after a change. */
void tui_colours_apply(Tui *tui);
/* --background's value; reports and returns false if it is none of background_names. */
bool tui_parse_background(const char *value, Background *background);
/* Sets tui->background from --background, else COLORFGBG; returns whether
 * the terminal should be asked (auto, COLORFGBG silent, colours wanted). */
bool tui_background_from_environment(Tui *tui);
/* The B key: colours for the other background, from now on. */
void tui_background_toggle(Tui *tui);
bool tui_layout(Tui *tui); /* windows and canvases for the terminal's size */
void tui_layout_free(Tui *tui);
void tui_draw(Tui *tui);
void tui_draw_panes(Tui *tui); /* each pane's view and plots, to be sent by doupdate */
void tui_draw_help(Tui *tui);  /* the help overlay of tui->help_keys, page tui->help_page */
/* How the help overlay of keys (NULL-terminated pairs: label, what it does)
 * and its footer fits a screen of rows x cols: every text whole, wrapped in
 * its column; one column if they fit, else side by side, else pages. */
typedef struct TuiHelpPlan {
    int width, height;         /* the box, cells */
    int across;                /* columns of keys side by side on a page */
    int key_width, text_width; /* cells of a column's labels and of its texts */
    int body_rows;             /* rows of keys a column holds */
    int footer_rows;
    int pages; /* 1, or more when even side by side they do not fit */
} TuiHelpPlan;
void tui_help_plan(const char *const *keys, const char *footer, int rows, int cols, TuiHelpPlan *plan);
/* Draws page `page` of the help into c, a canvas of plan's size: no curses. */
void tui_help_render(Canvas *c, const char *const *keys, const char *footer, const TuiHelpPlan *plan, int page,
                     bool ascii);
void tui_draw_too_small(Tui *tui); /* the notice shown instead of a frame */
void tui_blit(Tui *tui, WINDOW *win, const Canvas *canvas);
/* The pane whose view holds screen cell (y, x), with the cell inside it; -1 if none. */
int tui_pane_at(const Tui *tui, int y, int x, int *view_y, int *view_x);

#endif
