/* tui_draw.c - what the sandbox shows: layout, colours, the one copy of a
 * canvas to the screen, and the status line, panel, plots, banners and help.
 *
 * Every frame is composed off screen in canvases (the renderer's cloth, then
 * text on top), and tui_blit copies each canvas into its curses window. Each
 * window is then wnoutrefresh-ed and one doupdate sends the frame: curses
 * compares it with what the terminal shows and sends only the cells that
 * changed, which is what keeps a session over SSH light. The panel is copied
 * only when it changed.
 *
 * Colours: the renderer speaks in Palette entries; here each becomes the
 * colour colours.c chooses among the terminal's 256, 16 or 8 (8: with bold
 * or dim for brightness) for its background, dark or light, or, with
 * NO_COLOR or a monochrome terminal, no colour at all (braille shading then
 * still shows light through how many dots are lit).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "cli.h"
#include "colours.h"
#include "i18n.h"
#include "lesson/view.h"
#include "render/layout.h"
#include "tui_draw.h"
#include "tui_camera.h"
#include "tui_scales.h"

/* ---------------------------------------------------------------- colours */

static void pairs_init(Tui *tui);

void tui_colours_init(Tui *tui)
{
    memset(tui->pair, 0, sizeof tui->pair);
    for (int p = 0; p < PALETTE_COUNT; p++) {
        tui->colour_of[p] = -1;
        tui->extra_attr[p] = A_NORMAL;
        tui->drop_bold[p] = false;
    }
    tui->next_pair = 1;
    tui->colour = COLOUR_NONE;
    const char *no_color = getenv("NO_COLOR");
    bool wanted = !(no_color && no_color[0]) && has_colors();
    if (wanted && start_color() == OK && COLORS >= 8 && COLOR_PAIRS >= 16) {
        use_default_colors();
        tui->colour = COLORS >= 256 ? COLOUR_256 : COLORS >= 16 ? COLOUR_16 : COLOUR_8;
    }
    if (tui->colour == COLOUR_NONE) {
        /* attributes stand in for the colours that carry meaning */
        tui->extra_attr[PALETTE_HIGHLIGHT] = A_BOLD;
        tui->extra_attr[PALETTE_DIM] = A_DIM;
        tui->extra_attr[PALETTE_STRAIN_WARN] = A_BOLD | A_REVERSE;
        tui->extra_attr[PALETTE_PIN] = A_BOLD;
        return;
    }
    tui_colours_apply(tui);
}

void tui_colours_apply(Tui *tui)
{
    if (tui->colour == COLOUR_NONE)
        return;
    int colours = tui->colour == COLOUR_256 ? 256 : tui->colour == COLOUR_16 ? 16 : 8;
    for (int p = 1; p < PALETTE_COUNT; p++) {
        TermColour c = colours_map(p, colours, tui->background, tui->render.high_contrast);
        tui->colour_of[p] = c.colour;
        tui->extra_attr[p] = (c.bold ? A_BOLD : A_NORMAL) | (c.dim ? A_DIM : A_NORMAL);
        tui->drop_bold[p] = c.drop_bold;
    }
    pairs_init(tui);
    clearok(curscr, TRUE); /* cells drawn in a pair whose colours changed */
    tui->panel_dirty = true;
}

bool tui_parse_background(const char *value, Background *background)
{
    for (int k = 0; background_names[k]; k++)
        if (strcmp(value, background_names[k]) == 0) {
            *background = (Background)k;
            return true;
        }
    cli_error("--background %s: not one of dark, light, auto", cli_cut(value, CLI_CUT_WORD));
    return false;
}

bool tui_background_from_environment(Tui *tui)
{
    tui->background = PALETTE_ON_DARK;
    if (tui->background_asked != BACKGROUND_AUTO) {
        tui->background = tui->background_asked == BACKGROUND_LIGHT ? PALETTE_ON_LIGHT : PALETTE_ON_DARK;
        return false;
    }
    if (colours_parse_colorfgbg(getenv("COLORFGBG"), &tui->background))
        return false;
    const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");
    if (no_color && no_color[0])
        return false; /* no colours to choose */
    /* the Linux console answers no OSC 11 and is dark */
    return !(term && strncmp(term, "linux", 5) == 0);
}

void tui_background_toggle(Tui *tui)
{
    tui->background = tui->background == PALETTE_ON_LIGHT ? PALETTE_ON_DARK : PALETTE_ON_LIGHT;
    tui->background_asked = tui->background == PALETTE_ON_LIGHT ? BACKGROUND_LIGHT : BACKGROUND_DARK;
    if (tui->colour == COLOUR_NONE) {
        tui_message(tui, "no colours to change (NO_COLOR, or the terminal has none)");
        return;
    }
    tui_colours_apply(tui);
    tui_message(tui, "%s",
                tui->background_asked == BACKGROUND_LIGHT ? _("colours for a light background")
                                                          : _("colours for a dark background"));
}

/* The colour pair of fg on bg: made for every combination at start, so that
 * drawing never asks curses for a new one (which may allocate). Combinations
 * that map to the same terminal colours share a pair; past COLOR_PAIRS a
 * combination falls back to fg on the default background. */
static void pairs_init(Tui *tui)
{
    short made_fg[PALETTE_COUNT * PALETTE_COUNT + 1], made_bg[PALETTE_COUNT * PALETTE_COUNT + 1];
    tui->next_pair = 1;
    for (int pass = 0; pass < 2; pass++) /* pass 0: default backgrounds, so that fallbacks exist */
        for (int fg = 0; fg < PALETTE_COUNT; fg++)
            for (int bg = 0; bg < PALETTE_COUNT; bg++) {
                if ((bg == PALETTE_DEFAULT) != (pass == 0))
                    continue;
                short cf = tui->colour_of[fg], cb = tui->colour_of[bg];
                short pair = cf < 0 && cb < 0 ? 0 : -1;
                for (int k = 1; k < tui->next_pair && pair < 0; k++)
                    if (made_fg[k] == cf && made_bg[k] == cb)
                        pair = (short)k;
                if (pair < 0 && tui->next_pair < COLOR_PAIRS && tui->next_pair <= PALETTE_COUNT * PALETTE_COUNT &&
                    init_pair((short)tui->next_pair, cf, cb) == OK) {
                    pair = (short)tui->next_pair++;
                    made_fg[pair] = cf, made_bg[pair] = cb;
                }
                tui->pair[fg][bg] = pair;
            }
}

static short pair_for(const Tui *tui, int fg, int bg)
{
    if (tui->colour == COLOUR_NONE || fg >= PALETTE_COUNT || bg >= PALETTE_COUNT)
        return 0;
    short pair = tui->pair[fg][bg];
    if (pair < 0)
        pair = tui->pair[fg][PALETTE_DEFAULT];
    return pair < 0 ? 0 : pair;
}

/* ---------------------------------------------------------------- the copy */

/* The shadow of win, or NULL if it has none (a window not of the layout). */
static TuiShadow *shadow_of(Tui *tui, const WINDOW *win)
{
    for (int k = 0; k < TUI_SHADOWS; k++)
        if (tui->shadows[k].win == win)
            return &tui->shadows[k];
    return NULL;
}

/* Whether the cells the shadows hold still become the same curses cells:
 * colours, bold and the glyphs allowed may change (B, C, a); then every
 * window is copied whole once more. */
static bool blit_style_kept(Tui *tui)
{
    TuiBlitStyle now;
    memset(&now, 0, sizeof now); /* padding too: compared with memcmp */
    memcpy(now.pair, tui->pair, sizeof now.pair);
    memcpy(now.extra_attr, tui->extra_attr, sizeof now.extra_attr);
    memcpy(now.drop_bold, tui->drop_bold, sizeof now.drop_bold);
    now.colour = (int)tui->colour;
    now.wide = !tui->ascii_only;
    if (memcmp(&now, &tui->shadow_style, sizeof now) == 0)
        return true;
    tui->shadow_style = now;
    for (int k = 0; k < TUI_SHADOWS; k++)
        tui->shadows[k].valid = false;
    return false;
}

/* Two columns wide on the terminal; braille, most of a picture, is asked
 * without a call (one column, as every character below U+1100). */
static bool glyph_wide(uint32_t glyph)
{
    return glyph >= 0x1100 && !(glyph >= 0x2800 && glyph <= 0x28FF) && wcwidth((wchar_t)glyph) == 2;
}

static bool cell_same(const CanvasCell *a, const CanvasCell *b)
{
    return a->glyph == b->glyph && a->fg == b->fg && a->bg == b->bg && a->attr == b->attr;
}

/* Copies the canvas into win. The window keeps what was written into it, so
 * only the cells that differ from the last copy (its shadow) are written;
 * touchwin then has wnoutrefresh compare every cell with the screen to come,
 * as it did when every cell was written: the same screen, at a tenth of the
 * curses calls (a frame of the default sandbox changes some 150 of 1,200). */
void tui_blit(Tui *tui, WINDOW *win, const Canvas *canvas)
{
    if (!win || !canvas)
        return;
    int rows, cols;
    getmaxyx(win, rows, cols);
    if (rows > canvas->height)
        rows = canvas->height;
    if (cols > canvas->width)
        cols = canvas->width;
    bool wide = !tui->ascii_only;
    TuiShadow *shadow = shadow_of(tui, win);
    bool style_kept = blit_style_kept(tui);
    if (shadow && (shadow->width != canvas->width || shadow->height != canvas->height ||
                   (size_t)canvas->width * (size_t)canvas->height > shadow->capacity))
        shadow = NULL; /* not laid out for this canvas: copied whole, as without one */
    bool changes_only = shadow && shadow->valid && style_kept;
    for (int y = 0; y < rows; y++) {
        const CanvasCell *cell = canvas->cells + (size_t)y * (size_t)canvas->width;
        CanvasCell *old = shadow ? shadow->cells + (size_t)y * (size_t)canvas->width : NULL;
        bool after_wide = false; /* a wide character was in the cell before: this one is written too */
        for (int x = 0; x < cols; x++, cell++) {
            if (changes_only && !after_wide && cell_same(&old[x], cell))
                continue;
            /* curses blanks the second half of a wide character written over */
            after_wide = wide && old && glyph_wide(old[x].glyph);
            if (old)
                old[x] = *cell;
            wchar_t glyph[2] = {(wchar_t)cell->glyph, L'\0'};
            if (cell->glyph < 0x20 || (!wide && cell->glyph >= 0x7F))
                glyph[0] = cell->glyph < 0x20 ? L' ' : L'?';
            /* a wide character covers the next cell too (tui_text_put leaves it blank) */
            bool covers_next = wide && glyph_wide((uint32_t)glyph[0]);
            int fg = cell->fg < PALETTE_COUNT ? cell->fg : 0;
            attr_t attr = tui->extra_attr[fg];
            if ((cell->attr & ATTR_BOLD) && !tui->drop_bold[fg])
                attr |= A_BOLD;
            if (cell->attr & ATTR_DIM)
                attr |= A_DIM;
            if (cell->attr & ATTR_REVERSE)
                attr |= A_REVERSE;
            if (cell->attr & ATTR_UNDERLINE)
                attr |= A_UNDERLINE;
            cchar_t out;
            setcchar(&out, glyph, attr, pair_for(tui, cell->fg, cell->bg), NULL);
            if (covers_next && x + 1 >= cols) {
                setcchar(&out, L" ", attr, pair_for(tui, cell->fg, cell->bg), NULL);
                covers_next = false;
            }
            mvwadd_wch(win, y, x, &out); /* the bottom-right cell reports ERR yet is drawn */
            if (covers_next) {
                x++, cell++;
                if (old && x < cols)
                    old[x] = *cell;
            }
        }
    }
    if (shadow) {
        if (changes_only)
            touchwin(win);
        shadow->valid = rows == canvas->height && cols == canvas->width;
    }
}

/* Gives win a shadow of width x height cells in slot, not yet valid. */
static bool shadow_bind(TuiShadow *shadow, WINDOW *win, int width, int height)
{
    shadow->win = win;
    shadow->valid = false;
    shadow->width = width, shadow->height = height;
    size_t need = (size_t)(width > 0 ? width : 0) * (size_t)(height > 0 ? height : 0);
    if (!win || need <= shadow->capacity)
        return true;
    CanvasCell *cells = realloc(shadow->cells, need * sizeof *cells);
    if (!cells) {
        shadow->win = NULL;
        return false;
    }
    shadow->cells = cells;
    shadow->capacity = need;
    return true;
}

/* ---------------------------------------------------------------- layout */

static void windows_free(Tui *tui)
{
    for (int k = 0; k < TUI_SHADOWS; k++)
        tui->shadows[k].win = NULL, tui->shadows[k].valid = false;
    WINDOW **all[] = {&tui->status_win, &tui->panel_win, &tui->help_win};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        if (*all[k])
            delwin(*all[k]);
        *all[k] = NULL;
    }
    for (int i = 0; i < TUI_MAX_PANES; i++) {
        if (tui->panes[i].view_win)
            delwin(tui->panes[i].view_win);
        if (tui->panes[i].plot_win)
            delwin(tui->panes[i].plot_win);
        tui->panes[i].view_win = tui->panes[i].plot_win = NULL;
    }
}

void tui_layout_free(Tui *tui)
{
    windows_free(tui);
    Canvas **all[] = {&tui->status, &tui->panel, &tui->help_canvas};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        canvas_destroy(*all[k]);
        *all[k] = NULL;
    }
    for (int i = 0; i < TUI_MAX_PANES; i++) {
        canvas_destroy(tui->panes[i].view);
        canvas_destroy(tui->panes[i].plots);
        tui->panes[i].view = tui->panes[i].plots = NULL;
    }
    for (int k = 0; k < TUI_SHADOWS; k++) {
        free(tui->shadows[k].cells);
        tui->shadows[k] = (TuiShadow){0};
    }
}

/* A canvas of the given size, made or resized. */
static bool canvas_ensure(Canvas **canvas, int width, int height)
{
    if (!*canvas) {
        *canvas = canvas_create(width, height);
        return *canvas != NULL;
    }
    if ((*canvas)->width == width && (*canvas)->height == height)
        return true;
    return canvas_resize(*canvas, width, height);
}

static bool layout_help(Tui *tui, int rows, int cols)
{
    TuiHelpPlan plan;
    tui_help_plan(tui->help_keys, tui->help_footer, rows, cols, &plan);
    tui->help_pages = plan.pages;
    if (tui->help_page >= plan.pages)
        tui->help_page = plan.pages - 1;
    tui->help_win = newwin(plan.height, plan.width, (rows - plan.height) / 2, (cols - plan.width) / 2);
    return tui->help_win && canvas_ensure(&tui->help_canvas, plan.width, plan.height);
}

bool tui_layout(Tui *tui)
{
    windows_free(tui);
    int rows = tui->term.rows, cols = tui->term.cols;
    tui->too_small = cols < TUI_MIN_COLS || rows < TUI_MIN_ROWS;
    tui->panel_dirty = true;
    if (!tui->offscreen)
        clearok(curscr, TRUE); /* after a resize the terminal's content is anyone's guess */
    if (tui->too_small)
        return true;

    Layout layout;
    layout_compute(&layout, cols, rows, tui->pane_count, tui->lesson_layout);
    tui->panel_shown = layout.panel_shown;
    bool ok = true, windows = !tui->offscreen;
    tui->status_win = windows ? newwin(1, cols, 0, 0) : NULL;
    ok = ok && (tui->status_win || !windows) && canvas_ensure(&tui->status, cols, 1);
    if (tui->panel_shown) {
        const LayoutRect *r = &layout.panel;
        tui->panel_win = windows ? newwin(r->height, r->width, r->y, r->x) : NULL;
        ok = ok && (tui->panel_win || !windows) && canvas_ensure(&tui->panel, r->width, r->height);
    }
    for (int i = 0; i < tui->pane_count && ok; i++) {
        TuiPane *pane = &tui->panes[i];
        const LayoutRect *view = &layout.view[i], *plots = &layout.plots[i];
        pane->view_win = windows ? newwin(view->height, view->width, view->y, view->x) : NULL;
        ok = ok && (pane->view_win || !windows) && canvas_ensure(&pane->view, view->width, view->height) &&
             render_reserve(pane->view, pane->solver->cloth);
        if (plots->height > 0 && windows) {
            pane->plot_win = newwin(plots->height, plots->width, plots->y, plots->x);
            ok = ok && pane->plot_win;
        }
        ok = ok && canvas_ensure(&pane->plots, plots->width, plots->height);
    }
    ok = ok && (!windows || layout_help(tui, rows, cols));
    if (ok && windows) {
        ok =
            shadow_bind(&tui->shadows[0], tui->status_win, tui->status->width, tui->status->height) &&
            (!tui->panel_win || shadow_bind(&tui->shadows[1], tui->panel_win, tui->panel->width, tui->panel->height)) &&
            shadow_bind(&tui->shadows[2], tui->help_win, tui->help_canvas->width, tui->help_canvas->height);
        for (int i = 0; i < tui->pane_count && ok; i++) {
            TuiPane *pane = &tui->panes[i];
            ok = shadow_bind(&tui->shadows[3 + 2 * i], pane->view_win, pane->view->width, pane->view->height) &&
                 (!pane->plot_win ||
                  shadow_bind(&tui->shadows[4 + 2 * i], pane->plot_win, pane->plots->width, pane->plots->height));
        }
    }
    if (!ok) {
        windows_free(tui);
        tui->too_small = true; /* out of memory, or past CANVAS_MAX_SIDE: a notice instead */
        return false;
    }
    tui_fit_cameras(tui);
    return true;
}

int tui_pane_at(const Tui *tui, int y, int x, int *view_y, int *view_x)
{
    for (int i = 0; i < tui->pane_count; i++) {
        WINDOW *win = tui->panes[i].view_win;
        if (!win)
            continue;
        int top, left, rows, cols;
        getbegyx(win, top, left);
        getmaxyx(win, rows, cols);
        if (y >= top && y < top + rows && x >= left && x < left + cols) {
            *view_y = y - top;
            *view_x = x - left;
            return i;
        }
    }
    return -1;
}

/* ---------------------------------------------------------------- text */

static int text_width(const char *s)
{
    return tui_text_cells(s);
}

static int put(Canvas *canvas, int x, int y, const char *text, uint8_t fg, uint8_t attr)
{
    return canvas_text(canvas, x, y, text, fg, attr);
}

/* The next line of text at most width cells wide, broken at a space where
 * there is one: its length in bytes; *next is where the line after starts. */
static size_t text_wrap(const char *text, int width, const char **next)
{
    const char *p = text, *space = NULL;
    int cells = 0;
    while (*p) {
        uint32_t code_point;
        int bytes = canvas_utf8_decode(p, &code_point);
        int w = tui_glyph_cells(code_point);
        if (code_point == ' ')
            space = p;
        if (cells + w > width && p > text) {
            const char *end = space && space > text ? space : p;
            *next = end;
            while (**next == ' ')
                (*next)++;
            return (size_t)(end - text);
        }
        cells += w;
        p += bytes;
    }
    *next = p;
    return (size_t)(p - text);
}

/* The same into line (trailing blanks dropped); returns where the next
 * line starts. */
static const char *wrap_line(const char *text, int width, char *line, size_t line_size)
{
    const char *next;
    size_t n = text_wrap(text, width, &next);
    if (n >= line_size)
        n = line_size - 1;
    memcpy(line, text, n);
    line[n] = '\0';
    while (n > 0 && line[n - 1] == ' ')
        line[--n] = '\0';
    return next;
}

#define WRAP_MAX_LINES 8

/* text wrapped to width cells: the lines (at most WRAP_MAX_LINES), and how many */
static int wrap_text(const char *text, int width, char lines[][160])
{
    int n = 0;
    if (width < 4)
        width = 4;
    while (*text == ' ')
        text++;
    while (*text && n < WRAP_MAX_LINES)
        text = wrap_line(text, width, lines[n++], 160);
    return n;
}

/* ---------------------------------------------------------------- status line */

static void draw_status(Tui *tui)
{
    Canvas *c = tui->status;
    canvas_clear(c);
    uint8_t bold = tui->render.high_contrast ? ATTR_BOLD : ATTR_NONE;
    /* the panes step in lockstep; one that exploded stopped counting */
    const Solver *first = tui->panes[0].solver;
    for (int i = 1; i < tui->pane_count; i++)
        if (tui->panes[i].solver->step > first->step)
            first = tui->panes[i].solver;
    char names[96] = "";
    for (int i = 0; i < tui->pane_count; i++) {
        const char *name = integrator_names[tui->panes[i].solver->params.integrator];
        if (strstr(names, name))
            continue;
        if (names[0])
            strncat(names, "/", sizeof names - strlen(names) - 1);
        strncat(names, name, sizeof names - strlen(names) - 1);
    }
    char counters[96], sizes[96], state[128], speed[64] = ""; /* room for two-byte letters (uk) */
    snprintf(counters, sizeof counters, _("  step %lld  t %.2f s"), tui_step_shown(first), first->time);
    i18n_decimals(counters, sizeof counters);
    if (first->params.integrator == INTEGRATOR_IMPLICIT) /* no passes: the solve's iterations */
        snprintf(sizes, sizeof sizes, _("  cg %d  sub %d"), first->cg_iterations, first->params.substeps);
    else
        snprintf(sizes, sizeof sizes, _("  iter %d  sub %d"), first->params.iterations, first->params.substeps);
    bool exploded = true, unconverged = false;
    for (int i = 0; i < tui->pane_count; i++) {
        const Solver *solver = tui->panes[i].solver;
        exploded = exploded && solver->exploded;
        unconverged = unconverged || tui_solve_unconverged(solver);
    }
    if (exploded)
        snprintf(state, sizeof state, "%s", _("  exploded"));
    else if (tui->blowing_up && !tui->paused)
        snprintf(state, sizeof state, "%s", _("  blowing up: slow motion"));
    else if (tui->paused)
        snprintf(state, sizeof state, "%s", _("  paused"));
    else if (unconverged)
        snprintf(state, sizeof state, "%s", _("  solve not converged"));
    else if (tui->settled)
        snprintf(state, sizeof state, "%s", _("  settled"));
    else if (tui_now() < tui->behind_until)
        snprintf(state, sizeof state, _("  %.0f fps, slower than real time"), tui->fps_measured);
    else
        snprintf(state, sizeof state, _("  %.0f fps"), tui->fps_measured);
    bool loud = tui->paused || exploded || tui->blowing_up || unconverged;
    if (tui->speed != TUI_SPEED_NORMAL) {
        double s = tui_speeds[tui->speed];
        if (s < 1.0)
            snprintf(speed, sizeof speed, _("  slow x1/%.0f"), 1.0 / s);
        else
            snprintf(speed, sizeof speed, _("  fast x%.0f"), s);
    }
    const char *holding = tui->grab_pane >= 0 && tui->drag_button == 0 ? _("  holding: arrows drag, g throws") : "";
    /* a line that does not fit sheds the least needed first, so that what
     * is left is whole: the hint, then the iterations and substeps (the
     * panel shows them), then the holding keys, then the integrators past
     * the first */
    const char *hint = _("? help  q quit ");
    int room = c->width - 1;
    int need = text_width(names) + text_width(counters) + text_width(sizes) + text_width(state) + text_width(speed) +
               text_width(holding);
    if (need > room)
        sizes[0] = '\0';
    need = text_width(names) + text_width(counters) + text_width(sizes) + text_width(state) + text_width(speed) +
           text_width(holding);
    if (need > room && holding[0])
        holding = _("  holding");
    need = text_width(names) + text_width(counters) + text_width(state) + text_width(speed) + text_width(holding);
    if (need > room && strchr(names, '/')) {
        int others = 0;
        for (const char *p = names; *p; p++)
            others += *p == '/';
        char *slash = strchr(names, '/');
        snprintf(slash, sizeof names - (size_t)(slash - names), " +%d", others);
    }
    int x = put(c, 1, 0, names, PALETTE_HIGHLIGHT, ATTR_BOLD);
    x = put(c, x, 0, counters, PALETTE_TEXT, bold);
    x = put(c, x, 0, sizes, PALETTE_TEXT, bold);
    x = put(c, x, 0, state, loud ? PALETTE_HIGHLIGHT : PALETTE_TEXT, loud ? ATTR_BOLD : bold);
    x = put(c, x, 0, speed, PALETTE_HIGHLIGHT, ATTR_BOLD);
    x = put(c, x, 0, holding, PALETTE_HIGHLIGHT, bold);
    int hint_x = c->width - text_width(hint);
    if (hint_x > x + 1)
        put(c, hint_x, 0, hint, PALETTE_DIM, ATTR_NONE);
    tui_blit(tui, tui->status_win, c);
    wnoutrefresh(tui->status_win);
}

/* ---------------------------------------------------------------- the panel */

static double value_of(const Params *params, const ParamInfo *info)
{
    const char *base = (const char *)params + info->offset;
    switch (info->type) {
    case PARAM_REAL:
        return *(const double *)(const void *)base;
    case PARAM_INT:
    case PARAM_ENUM:
        return (double)*(const int *)(const void *)base;
    case PARAM_SEED:
        return (double)*(const uint64_t *)(const void *)base;
    }
    return 0.0;
}

/* Where value sits along the slider, 0..1. */
/* text cut or padded with spaces to exactly cells cells (a translated
 * slider name is as many bytes as it likes: Cyrillic takes two a letter) */
static void label_cells(char *out, size_t out_size, const char *text, int cells)
{
    size_t n = 0;
    int width = 0;
    while (text[n] && width < cells) {
        uint32_t code_point;
        size_t length = (size_t)canvas_utf8_decode(text + n, &code_point);
        if (n + length >= out_size)
            break;
        n += length;
        width += tui_glyph_cells(code_point);
    }
    memcpy(out, text, n);
    while (width < cells && n + 1 < out_size)
        out[n++] = ' ', width++;
    out[n] = '\0';
}

static double slider_fraction(const TuiSlider *slider, double value)
{
    double f = slider->scale && slider->lo > 0.0 ? log(value / slider->lo) / log(slider->hi / slider->lo)
                                                 : (value - slider->lo) / (slider->hi - slider->lo);
    return f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
}

/* Writes text wrapped to width from row y; returns the row after it. */
static int put_wrapped(Canvas *c, int x, int y, int width, int last_row, const char *text, uint8_t fg)
{
    char line[160];
    while (*text && y <= last_row) {
        text = wrap_line(text, width, line, sizeof line);
        put(c, x, y++, line, fg, ATTR_NONE);
    }
    return y;
}

/* Slider rows kept however long the chosen key's meaning is (below them
 * it may then be cut at the panel's bottom; no key's is that long at 24 rows). */
#define PANEL_MIN_LIST_ROWS 6

/* The slider rows first..last that fit in list_rows with the chosen one
 * among them; a row of its own says how many are hidden above or below.
 * Keeps tui->panel_top, so the list moves only when the choice leaves it. */
static void panel_scroll(Tui *tui, int list_rows, int *first, int *last)
{
    int count = tui->slider_count;
    if (count <= list_rows) {
        tui->panel_top = 0;
        *first = 0, *last = count - 1;
        return;
    }
    int top = tui->panel_top, chosen = tui->selected;
    if (top > count - (list_rows - 1))
        top = count - (list_rows - 1); /* no blank rows under the last one */
    if (top < 0)
        top = 0;
    for (int guard = 0; guard <= 2 * count; guard++) {
        int rows = list_rows - (top > 0); /* the "more above" row */
        int end = top + rows - 1;
        if (end < count - 1)
            end--; /* the "more below" row */
        if (chosen < top)
            top = chosen;
        else if (chosen > end)
            top++;
        else {
            tui->panel_top = top;
            *first = top, *last = end < count - 1 ? end : count - 1;
            return;
        }
    }
    tui->panel_top = 0; /* not reached: a chosen row always fits in three */
    *first = 0, *last = list_rows - 2;
}

static void draw_panel(Tui *tui)
{
    Canvas *c = tui->panel;
    canvas_clear(c);
    uint8_t bold = tui->render.high_contrast ? ATTR_BOLD : ATTR_NONE;
    const char *rule = tui_text(tui, "\u2502", "|");
    for (int y = 0; y < c->height; y++)
        put(c, 0, y, rule, PALETTE_DIM, ATTR_NONE);
    put(c, 2, 0, tui->compare_key ? _("Settings (all panes)") : _("Settings"), PALETTE_TEXT, ATTR_BOLD);
    const Params *params = &tui->base;
    /* what the chosen key means, from the key table, whole */
    char about[512] = "";
    if (tui->selected < tui->slider_count) {
        const ParamInfo *info = tui->sliders[tui->selected].info;
        if (info->unit[0])
            snprintf(about, sizeof about, "%s (%s): %s", info->name, _(info->unit), _(info->help));
        else
            snprintf(about, sizeof about, "%s: %s", info->name, _(info->help));
    }
    int about_lines = 0;
    char line[160];
    for (const char *p = about; *p; about_lines++)
        p = wrap_line(p, c->width - 3, line, sizeof line);
    /* the rows, scrolled to keep the chosen one in view when they do not
     * all fit above the hint, what the key means and the residual */
    const Solver *shown = tui->panes[0].solver;
    bool solving = shown->params.integrator == INTEGRATOR_IMPLICIT;
    int list_rows = c->height - 1 - 2 - about_lines - (tui->show_residual ? 3 : 0) - (solving ? 4 : 0);
    if (list_rows < PANEL_MIN_LIST_ROWS)
        list_rows = PANEL_MIN_LIST_ROWS;
    int first, last; /* the slider rows shown */
    panel_scroll(tui, list_rows, &first, &last);
    int y = 1;
    if (first > 0) {
        char more[48];
        snprintf(more, sizeof more, _("%s %d more (Up)"), tui_text(tui, "\u25b2", "^"), first);
        put(c, 3, y++, more, PALETTE_DIM, ATTR_NONE);
    }
    for (int k = first; k <= last && y < c->height; k++, y++) {
        const TuiSlider *slider = &tui->sliders[k];
        const ParamInfo *info = slider->info;
        bool selected = k == tui->selected;
        char value[64];
        bool differs = tui->compare_key == info;
        if (differs)
            snprintf(value, sizeof value, "%s", _("(panes)"));
        else if (info->type == PARAM_REAL)
            i18n_number(value, sizeof value, "%.4g", value_of(params, info));
        else {
            char name[64];
            params_format(params, info, name, sizeof name);
            snprintf(value, sizeof value, "%s", i18n_value_name(info->name, name)); /* in the screen's language */
        }
        uint8_t attr = selected ? ATTR_REVERSE | ATTR_BOLD : bold;
        /* a value longer than its column ("hysteresis") takes the bar's room,
         * whole; widths in cells, for a value in Cyrillic */
        int cells = text_width(value);
        int value_width = cells > 9 ? cells : 9;
        if (value_width > c->width - 2 - 12)
            value_width = c->width - 2 - 12;
        bool bar = info->type != PARAM_ENUM && !differs && cells <= 9;
        char row[160];
        label_cells(row, sizeof row, _(slider->label), 12);
        size_t used = strlen(row);
        for (int pad = value_width - cells; pad > 0 && used + 1 < sizeof row; pad--)
            row[used++] = ' ';
        label_cells(row + used, sizeof row - used, value, cells < value_width ? cells : value_width);
        put(c, 1, y, selected ? tui_text(tui, "\u25b6", ">") : " ", PALETTE_HIGHLIGHT, ATTR_BOLD);
        put(c, 2, y, row, selected ? PALETTE_HIGHLIGHT : PALETTE_TEXT, attr);
        if (bar) {
            int filled = (int)lround(slider_fraction(slider, value_of(params, info)) * 6.0);
            for (int b = 0; b < 6; b++)
                put(c, 24 + b, y, b < filled ? tui_text(tui, "\u2588", "=") : tui_text(tui, "\u2591", "-"),
                    b < filled ? PALETTE_FRONT_4 : PALETTE_DIM, ATTR_NONE);
        }
    }
    if (last < tui->slider_count - 1 && y < c->height) {
        char more[48];
        snprintf(more, sizeof more, _("%s %d more (Down)"), tui_text(tui, "\u25bc", "v"), tui->slider_count - 1 - last);
        put(c, 3, y++, more, PALETTE_DIM, ATTR_NONE);
    }
    y++;
    if (y < c->height)
        put(c, 2, y++, tui_text(tui, _("\u2191\u2193 choose  \u2190\u2192 change"), _("Up/Dn choose  Lt/Rt change")),
            PALETTE_DIM, ATTR_NONE);
    if (about[0] && y < c->height)
        y = put_wrapped(c, 2, y, c->width - 3, c->height - 1, about, PALETTE_DIM) + 1;
    if (solving && y < c->height - 1) {
        /* implicit: what the last substep's linear solve took */
        char text[96], residual[32];
        put(c, 2, y++, _("last linear solve:"), PALETTE_TEXT, bold);
        i18n_number(residual, sizeof residual, "%.2g", shown->cg_residual);
        tui->panel_cg_iterations = shown->cg_iterations, tui->panel_cg_residual = shown->cg_residual;
        snprintf(text, sizeof text, _("%d CG iterations"), shown->cg_iterations);
        put(c, 4, y++, text, PALETTE_HIGHLIGHT, ATTR_BOLD);
        if (y < c->height) {
            snprintf(text, sizeof text, _("residual %s"), residual);
            put(c, 4, y++, text, PALETTE_HIGHLIGHT, ATTR_BOLD);
        }
        if (tui_solve_unconverged(shown) && y < c->height)
            put(c, 4, y++, _("not converged"), PALETTE_STRAIN_WARN, ATTR_BOLD);
    }
    if (tui->show_residual && y < c->height - 1) {
        const Solver *solver = tui->panes[0].solver;
        char text[96];
        snprintf(text, sizeof text, _("residual, pass %d/%d:"), solver->residual_count, solver->params.iterations);
        put(c, 2, y++, text, PALETTE_TEXT, bold);
        if (solver->residual_count > 0)
            i18n_number(text, sizeof text, "%.4g", (double)solver->residual_trace[solver->residual_count - 1]);
        else
            snprintf(text, sizeof text, "%s", _("(no pass yet)"));
        put(c, 4, y++, text, PALETTE_HIGHLIGHT, ATTR_BOLD);
    }
    tui_blit(tui, tui->panel_win, c);
    touchwin(tui->panel_win);
    wnoutrefresh(tui->panel_win);
    tui->panel_dirty = false;
}

/* ---------------------------------------------------------------- panes */

static void draw_centred(Canvas *c, int y, const char *text, uint8_t fg, uint8_t attr)
{
    int x = (c->width - text_width(text)) / 2;
    put(c, x < 0 ? 0 : x, y, text, fg, attr);
}

/* A plot a lesson points at: its label row in bold reverse, up to the label's end. */
static void mark_row(Canvas *c, int x, int y, int w)
{
    int end = x + w;
    while (end > x && canvas_get(c, end - 1, y)->glyph == ' ')
        end--;
    for (int col = x; col < end; col++)
        c->cells[(size_t)y * (size_t)c->width + (size_t)col].attr |= ATTR_REVERSE | ATTR_BOLD;
}

/* ---------------------------------------------------------------- big numbers */

/* A 3 x 5 dot font for the numbers a lesson shows large, drawn with half
 * blocks two dot rows a cell: three cells tall, readable across a room.
 * Each glyph is five rows of three bits, the high bit on the left. */
static const struct {
    char c;
    unsigned char rows[5];
    int width; /* cells */
} big_font[] = {
    {'0', {7, 5, 5, 5, 7}, 3}, {'1', {2, 6, 2, 2, 7}, 3}, {'2', {7, 1, 7, 4, 7}, 3}, {'3', {7, 1, 7, 1, 7}, 3},
    {'4', {5, 5, 7, 1, 1}, 3}, {'5', {7, 4, 7, 1, 7}, 3}, {'6', {7, 4, 7, 5, 7}, 3}, {'7', {7, 1, 1, 1, 1}, 3},
    {'8', {7, 5, 7, 5, 7}, 3}, {'9', {7, 5, 7, 1, 7}, 3}, {'.', {0, 0, 0, 0, 2}, 1}, {',', {0, 0, 0, 2, 2}, 1},
    {'-', {0, 0, 7, 0, 0}, 3}, {'%', {5, 1, 2, 4, 5}, 3}, {' ', {0, 0, 0, 0, 0}, 1},
};

static int big_glyph(char c)
{
    for (size_t k = 0; k < sizeof big_font / sizeof big_font[0]; k++)
        if (big_font[k].c == c)
            return (int)k;
    return -1;
}

/* Cells text takes in the big font, or -1 if it has a character the font lacks. */
static int big_width(const char *text)
{
    int width = 0;
    for (const char *p = text; *p; p++) {
        int g = big_glyph(*p);
        if (g < 0)
            return -1;
        width += big_font[g].width + (p[1] ? 1 : 0);
    }
    return width;
}

static void big_put(Tui *tui, Canvas *c, int x, int y, const char *text, uint8_t fg)
{
    for (const char *p = text; *p; p++) {
        int g = big_glyph(*p);
        int width = big_font[g].width;
        for (int row = 0; row < 3; row++)
            for (int col = 0; col < width; col++) {
                int shift = width == 1 ? 1 : 2 - col;
                bool top = (big_font[g].rows[2 * row] >> shift) & 1;
                bool bottom = row < 2 && ((big_font[g].rows[2 * row + 1] >> shift) & 1);
                const char *cell = top && bottom ? tui_text(tui, "\u2588", "#")
                                   : top         ? tui_text(tui, "\u2580", "\"")
                                   : bottom      ? tui_text(tui, "\u2584", "_")
                                                 : " ";
                tui_text_put(c, x + col, y + row, c->width, cell, fg, ATTR_BOLD);
            }
        x += width + 1;
    }
}

/* " label value " for a number in a line, or NULL when that is wider than
 * the view: then the label and the value take a line each. */
static const char *big_line(const TuiPane *pane, int k, const Canvas *view, char *line, size_t size)
{
    snprintf(line, size, " %s %s ", pane->big_label[k], pane->big_value[k]);
    return text_width(line) <= view->width ? line : NULL;
}

/* The numbers a lesson shows large, down the view's right edge from row
 * `top`: each a small label and the value three cells tall, or one line
 * (two, the label over the value, where one is too narrow) where the big
 * font does not fit. Returns the row after them; *bottom_top, the first row
 * they take along the bottom of a narrow view (the view's height if none),
 * which an explosion's banner keeps above. */
static int draw_big_numbers(Tui *tui, TuiPane *pane, Canvas *view, int top, int *bottom_top)
{
    int y = top;
    bool big = view->width >= 2 * LESSON_SHOW_COLUMNS; /* the strip the lesson's camera keeps free */
    *bottom_top = view->height;
    if (!big) { /* a narrow view: one line each (or two), along the bottom */
        int lines = 0;
        char line[160];
        for (int k = 0; k < pane->big_count; k++)
            lines += big_line(pane, k, view, line, sizeof line) ? 1 : 2;
        y = view->height - lines - 1 > top ? view->height - lines - 1 : top;
        if (pane->big_count)
            *bottom_top = y;
    }
    for (int k = 0; k < pane->big_count && y < view->height; k++) {
        const char *value = pane->big_value[k], *label = pane->big_label[k];
        int width = big_width(value);
        int label_width = text_width(label);
        int box = width > label_width ? width : label_width;
        if (big && width > 0 && box + 2 <= view->width && y + 4 <= view->height) {
            int x = view->width - box - 1;
            canvas_fill(view, x - 1, y, box + 2, 4, ' ', PALETTE_DEFAULT, PALETTE_DEFAULT);
            put(view, view->width - label_width - 1, y, label, PALETTE_TEXT, ATTR_BOLD);
            big_put(tui, view, view->width - width - 1, y + 1, value, PALETTE_HIGHLIGHT);
            y += 4;
        } else {
            char line[160];
            const char *parts[2] = {big_line(pane, k, view, line, sizeof line), NULL};
            char label_part[64], value_part[64];
            if (!parts[0]) {
                snprintf(label_part, sizeof label_part, " %s ", label);
                snprintf(value_part, sizeof value_part, " %s ", value);
                parts[0] = label_part, parts[1] = value_part;
            }
            for (int j = 0; j < 2 && parts[j] && y < view->height; j++) {
                int x = view->width - text_width(parts[j]);
                tui_text_put(view, x < 0 ? 0 : x, y++, view->width, parts[j], PALETTE_HIGHLIGHT,
                             ATTR_BOLD | ATTR_REVERSE);
            }
        }
    }
    return y;
}

/* Text cut into parts at double blanks, each part on its own row from row
 * y when the whole does not fit: a readout is never cut. Returns the row
 * after it. */
static int put_parts(Canvas *view, int y, const char *text, uint8_t fg, uint8_t attr)
{
    char line[200];
    snprintf(line, sizeof line, " %s ", text);
    if (text_width(line) <= view->width) {
        tui_text_put(view, 0, y, view->width, line, fg, attr);
        return y + 1;
    }
    const char *p = text;
    while (*p && y < view->height) {
        const char *end = strstr(p, "  ");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(line, sizeof line, " %.*s ", (int)n, p);
        tui_text_put(view, 0, y++, view->width, line, fg, attr);
        p += n;
        while (*p == ' ')
            p++;
    }
    return y;
}

/* Under the banner while the cloth flies apart (tui_blast.h): how far the
 * solver has gone on past the explosion, so that the class reads that the
 * picture is what it would have done. */
static void blast_line(const TuiPane *pane, const Canvas *view, char lines[][128], int *count)
{
    double t = tui_blast_time(&pane->blast);
    if (isfinite(t) && view->height >= 16) /* a short view keeps its rows for the cloth */
        snprintf(lines[(*count)++], 128, _(" had it gone on: t = %.3f s "), t);
}

/* An exploded pane stays broken on screen, and says when and how: red
 * lines across the view and a banner with the time and the energy it went
 * from and to. */
static void draw_explosion(Tui *tui, TuiPane *pane, Canvas *view, int bottom)
{
    const Solver *solver = pane->solver;
    const TuiSeries *energy = &pane->energy;
    float from = NAN, to = NAN;
    int start = (energy->next - energy->count + TUI_HISTORY) % TUI_HISTORY;
    int flown = tui_blast_shown(&pane->blast) ? pane->blast.samples : 0; /* after the explosion: not its figures */
    for (int k = 0; k < energy->count - flown; k++) {
        float e = energy->values[start + k];
        if (!isfinite(e))
            continue;
        if (!isfinite(from))
            from = e;
        to = isfinite(to) ? fmaxf(to, e) : e;
    }
    /* the broken frame: a warning-coloured border round the view */
    for (int y = 0; y < view->height; y++) {
        canvas_put(view, 0, y, tui->ascii_only ? '|' : 0x2503, PALETTE_STRAIN_WARN, PALETTE_DEFAULT, ATTR_BOLD);
        canvas_put(view, view->width - 1, y, tui->ascii_only ? '|' : 0x2503, PALETTE_STRAIN_WARN, PALETTE_DEFAULT,
                   ATTR_BOLD);
    }
    for (int x = 0; x < view->width; x++)
        canvas_put(view, x, view->height - 1, tui->ascii_only ? '=' : 0x2501, PALETTE_STRAIN_WARN, PALETTE_DEFAULT,
                   ATTR_BOLD);
    char lines[5][128];
    int count = 0;
    snprintf(lines[count++], sizeof lines[0], _(" EXPLODED at t = %.2f s "), solver->exploded_time);
    if (isfinite(from) && isfinite(to))
        snprintf(lines[count++], sizeof lines[0], _(" energy %.3g J %s %.3g J "), (double)from,
                 tui_text(tui, "\u2192", "->"), (double)to);
    /* why, in the words of the lessons */
    Integrator integrator = solver->params.integrator;
    if (integrator == INTEGRATOR_EULER)
        snprintf(lines[count++], sizeof lines[0], "%s", _(" Euler gains energy every step "));
    else if (integrator == INTEGRATOR_SYMPLECTIC || integrator == INTEGRATOR_VERLET)
        snprintf(lines[count++], sizeof lines[0], _(" omega h at most %.2g; stable only below 2 "),
                 solver_omega_dt(solver));
    else
        snprintf(lines[count++], sizeof lines[0], "%s", _(" a link stretched past 10 rest lengths "));
    if (!tui->lesson_layout)
        snprintf(lines[count++], sizeof lines[0], "%s", _(" r resets "));
    blast_line(pane, view, lines, &count);
    if (text_width(lines[0]) > view->width)
        snprintf(lines[0], sizeof lines[0], _(" EXPLODED t=%.2fs "), solver->exploded_time);
    for (int k = 0; k < count; k++)
        i18n_decimals(lines[k], sizeof lines[k]);
    /* each line whole: wrapped where the view is narrow (four panes at 80 columns) */
    char wrapped[2 * WRAP_MAX_LINES][160];
    int rows = 0;
    for (int k = 0; k < count && rows < 2 * WRAP_MAX_LINES; k++) {
        char parts[WRAP_MAX_LINES][160];
        int n = wrap_text(lines[k], view->width - 4, parts);
        for (int j = 0; j < n && rows < 2 * WRAP_MAX_LINES; j++)
            snprintf(wrapped[rows++], sizeof wrapped[0], " %.150s ", parts[j]);
    }
    /* at the bottom, above the border and the numbers shown there: the
     * broken cloth stays in view */
    if (bottom > view->height - 1)
        bottom = view->height - 1;
    int y = bottom - rows;
    if (y < 1)
        y = 1;
    for (int k = 0; k < rows && y + k < bottom; k++)
        draw_centred(view, y + k, wrapped[k], PALETTE_STRAIN_WARN, ATTR_BOLD | ATTR_REVERSE);
}

static void draw_pane(Tui *tui, int i)
{
    TuiPane *pane = &tui->panes[i];
    Canvas *view = pane->view;
    const Solver *solver = pane->solver;
    RenderOptions options = tui->render;
    if (pane->mode_set)
        options.mode = pane->mode;
    options.strain_full = pane->strain_full > 0.0f ? pane->strain_full : tui->strain_ramp;
    RenderExtras extras = pane->extras;
    extras.cuts = extras.cuts || tui->show_cuts;
    if (!tui_blast_render(&pane->blast, view, &pane->camera, solver, &options))
        render_solver_with(view, &pane->camera, solver, &options, &extras);
    int row = 0;
    if (pane->label[0]) {
        char label[128];
        snprintf(label, sizeof label, " %s ", pane->label);
        /* a narrow pane: the value alone (the status line and the message name the key) */
        const char *equals = strchr(pane->label, '=');
        if (text_width(label) > view->width && equals)
            snprintf(label, sizeof label, " %s ", equals + 1);
        tui_pane_torn(tui, i, label, sizeof label, view->width);
        tui_text_put(view, 0, 0, view->width, label, PALETTE_HIGHLIGHT, ATTR_BOLD | ATTR_REVERSE);
        row = 1;
    }
    if (pane->note[0])
        row = put_parts(view, row, pane->note, PALETTE_HIGHLIGHT, ATTR_BOLD | ATTR_REVERSE);
    int bottom_numbers;
    draw_big_numbers(tui, pane, view, row, &bottom_numbers); /* under the label and the note: never over them */
    if (solver->exploded)
        draw_explosion(tui, pane, view, bottom_numbers);
    int free_bottom = bottom_numbers - 1;                   /* the lowest row the numbers and the message leave */
    if (i == 0 && tui->message[0] && !tui->lesson_layout) { /* a lesson shows it in its status line */
        /* the whole message, wrapped over as many lines as it takes, up from the bottom */
        bool legend = options.legend && (options.mode == RENDER_STRAIN || options.mode == RENDER_WIRE);
        int bottom = view->height - 1 - (legend ? 1 : 0);
        char lines[WRAP_MAX_LINES][160];
        int n = wrap_text(tui->message, view->width - 2, lines);
        int widest = 0;
        for (int k = 0; k < n; k++)
            if (tui_text_cells(lines[k]) > widest)
                widest = tui_text_cells(lines[k]);
        int top = bottom - n + 1 < 1 ? 1 : bottom - n + 1;
        free_bottom = top - 1;
        for (int k = 0; k < n && top + k <= bottom; k++) {
            canvas_fill(view, 0, top + k, widest + 2 < view->width ? widest + 2 : view->width, 1, ' ', PALETTE_TEXT,
                        PALETTE_DEFAULT);
            for (int x = 0; x < widest + 2 && x < view->width; x++)
                view->cells[(size_t)(top + k) * (size_t)view->width + (size_t)x].attr = ATTR_REVERSE;
            tui_text_put(view, 1, top + k, view->width, lines[k], PALETTE_TEXT, ATTR_REVERSE);
        }
    }
    if (!solver->exploded && tui_solve_unconverged(solver) && free_bottom >= 1) {
        /* at the bottom, where an explosion's banner goes (above a
         * message): the answer on screen is not backward Euler's */
        const char *line = _(" solve not converged ");
        if (text_width(line) > view->width)
            line = _(" not converged ");
        draw_centred(view, free_bottom, line, PALETTE_STRAIN_WARN, ATTR_BOLD | ATTR_REVERSE);
    }
    tui_blit(tui, pane->view_win, view);
    if (pane->view_win)
        wnoutrefresh(pane->view_win);

    Canvas *plots = pane->plots;
    if ((!pane->plot_win && !tui->offscreen) || !plots || plots->height == 0)
        return;
    canvas_clear(plots);
    int half = plots->width / 2;
    const TuiSeries *energy = &pane->energy, *strain = &pane->strain;
    RenderPlotScale energy_scale, strain_scale;
    tui_pane_plot_scales(tui, i, &energy_scale, &strain_scale);
    int start = (energy->next - energy->count + TUI_HISTORY) % TUI_HISTORY;
    render_plot_scaled(plots, 0, 0, half - 1, plots->height, energy->values + start, energy->count, PALETTE_HIGHLIGHT,
                       _("energy J"), tui->render.glyphs, &energy_scale);
    if (pane->highlight_energy)
        mark_row(plots, 0, 0, half - 1);
    if (tui->show_residual && solver->residual_count > 0) {
        render_plot(plots, half, 0, plots->width - half, plots->height, solver->residual_trace, solver->residual_count,
                    PALETTE_STRAIN_1, _("residual/pass"), tui->render.glyphs);
    } else {
        start = (strain->next - strain->count + TUI_HISTORY) % TUI_HISTORY;
        render_plot_scaled(plots, half, 0, plots->width - half, plots->height, strain->values + start, strain->count,
                           PALETTE_STRAIN_4, _("max strain"), tui->render.glyphs, &strain_scale);
        if (pane->highlight_strain)
            mark_row(plots, half, 0, plots->width - half);
    }
    tui_blit(tui, pane->plot_win, plots);
    if (pane->plot_win)
        wnoutrefresh(pane->plot_win);
}

/* ---------------------------------------------------------------- help */

/* The help lays each key's text out in as many lines as its column is wide
 * (wrapped at spaces), never cutting one: one column when the screen is tall
 * enough, else two or more side by side, else pages (Space shows the next). */

#define HELP_GAP 3       /* cells between two columns of keys */
#define HELP_MIN_TEXT 16 /* a narrower text column wraps too much to read */
#define HELP_MAX_TEXT 44 /* a wider one is hard to follow across a projected screen */

static int help_lines(const char *text, int width)
{
    int line_count = 0;
    do {
        const char *next;
        text_wrap(text, width, &next);
        text = next;
        line_count++;
    } while (*text);
    return line_count;
}

/* The pages the entries fill, `across` columns a page, body_rows a column;
 * an entry is never split between two columns. */
static int help_page_count(const char *const *keys, int text_width, int body_rows, int across)
{
    int column = 0, used = 0;
    for (int k = 0; keys[2 * k]; k++) {
        int line_count = help_lines(_(keys[2 * k + 1]), text_width);
        if (used > 0 && used + line_count > body_rows)
            column++, used = 0;
        used += line_count;
    }
    return column / across + 1;
}

void tui_help_plan(const char *const *keys, const char *footer, int rows, int cols, TuiHelpPlan *plan)
{
    int key_width = 0, text_most = 1;
    for (int k = 0; keys[2 * k]; k++) {
        int label = tui_text_cells(keys[2 * k]), text = tui_text_cells(_(keys[2 * k + 1]));
        key_width = label > key_width ? label : key_width;
        text_most = text > text_most ? text : text_most;
    }
    key_width += 2;
    footer = footer ? footer : "";
    int room = cols - 6; /* a cell of margin each side, the borders, a cell of padding each side */
    *plan = (TuiHelpPlan){0};
    for (int across = 1;; across++) {
        int text_width = (room - (across - 1) * HELP_GAP) / across - key_width;
        if (text_width > text_most)
            text_width = text_most;
        if (text_width > HELP_MAX_TEXT)
            text_width = HELP_MAX_TEXT;
        if (across > 1 && text_width < HELP_MIN_TEXT)
            break; /* the last plan that fitted, in pages */
        if (text_width < 1)
            text_width = 1;
        int width = 4 + across * (key_width + text_width) + (across - 1) * HELP_GAP;
        int footer_cells = tui_text_cells(footer) + 4;
        if (width < footer_cells) /* the footer on one line where it can be */
            width = footer_cells < cols - 2 ? footer_cells : cols - 2;
        if (width < 30)
            width = 30; /* room for the title */
        int footer_rows = footer[0] ? help_lines(footer, width - 4) : 0;
        /* top border, keys, a blank row, the footer, bottom border */
        int body_rows = rows - 3 - footer_rows;
        if (body_rows < 1)
            body_rows = 1;
        int line_count = 0;
        for (int k = 0; keys[2 * k]; k++)
            line_count += help_lines(_(keys[2 * k + 1]), text_width);
        int pages = help_page_count(keys, text_width, body_rows, across);
        if (pages == 1) { /* the box as tall as its longest column */
            int low = (line_count + across - 1) / across;
            while (low < body_rows && help_page_count(keys, text_width, low, across) > 1)
                low++;
            body_rows = low;
        }
        *plan = (TuiHelpPlan){.width = width,
                              .height = body_rows + 3 + footer_rows,
                              .across = across,
                              .key_width = key_width,
                              .text_width = text_width,
                              .body_rows = body_rows,
                              .footer_rows = footer_rows,
                              .pages = pages};
        if (pages == 1 || across > 8)
            break;
    }
    if (plan->height > rows)
        plan->height = rows;
    if (plan->width > cols)
        plan->width = cols;
}

/* A piece of text of length bytes, at most width cells, from x. */
static void help_put(Canvas *c, int x, int y, const char *text, size_t length, int width, uint8_t fg, uint8_t attr)
{
    char line[512];
    if (length >= sizeof line)
        length = sizeof line - 1;
    memcpy(line, text, length);
    line[length] = '\0';
    tui_text_put(c, x, y, x + width, line, fg, attr);
}

void tui_help_render(Canvas *c, const char *const *keys, const char *footer, const TuiHelpPlan *plan, int page,
                     bool ascii)
{
    canvas_clear(c);
    int width = c->width, height = c->height;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            bool top = y == 0, bottom = y == height - 1, left = x == 0, right = x == width - 1;
            uint32_t glyph = ' ';
            if ((top || bottom) && (left || right))
                glyph = ascii ? '+' : top ? (left ? 0x256D : 0x256E) : (left ? 0x2570 : 0x256F);
            else if (top || bottom)
                glyph = ascii ? '-' : 0x2500;
            else if (left || right)
                glyph = ascii ? '|' : 0x2502;
            canvas_put(c, x, y, glyph, PALETTE_HIGHLIGHT, PALETTE_DEFAULT, ATTR_NONE);
        }
    char title[96];
    if (plan->pages > 1)
        snprintf(title, sizeof title, _(" Keys %d/%d (Space: more) "), page + 1, plan->pages);
    else
        snprintf(title, sizeof title, "%s", _(" Keys (any key closes) "));
    tui_text_put(c, 2, 0, width - 2, title, PALETTE_HIGHLIGHT, ATTR_BOLD);
    if (plan->pages > 1 && page + 1 < plan->pages) {
        const char *more = ascii ? _(" more: Space ") : _(" more: Space \u25bc ");
        tui_text_put(c, width - 2 - tui_text_cells(more), height - 1, width - 1, more, PALETTE_HIGHLIGHT, ATTR_BOLD);
    }
    int column_width = plan->key_width + plan->text_width + HELP_GAP;
    int column = 0, used = 0;
    for (int k = 0; keys[2 * k]; k++) {
        const char *text = _(keys[2 * k + 1]);
        int line_count = help_lines(text, plan->text_width);
        if (used > 0 && used + line_count > plan->body_rows)
            column++, used = 0;
        int on_page = column - page * plan->across;
        if (on_page >= plan->across)
            break;
        if (on_page >= 0) {
            int x = 2 + on_page * column_width, y = 1 + used;
            tui_text_put(c, x, y, x + plan->key_width - 1, keys[2 * k], PALETTE_HIGHLIGHT, ATTR_BOLD);
            for (int line = 0; line < line_count && y + line < 1 + plan->body_rows; line++) {
                const char *next;
                size_t length = text_wrap(text, plan->text_width, &next);
                help_put(c, x + plan->key_width, y + line, text, length, plan->text_width, PALETTE_TEXT, ATTR_NONE);
                text = next;
            }
        }
        used += line_count;
    }
    footer = footer ? footer : "";
    for (int line = 0; line < plan->footer_rows && *footer; line++) {
        const char *next;
        size_t length = text_wrap(footer, width - 4, &next);
        help_put(c, 2, 2 + plan->body_rows + line, footer, length, width - 4, PALETTE_DIM, ATTR_NONE);
        footer = next;
    }
}

void tui_draw_help(Tui *tui)
{
    TuiHelpPlan plan;
    tui_help_plan(tui->help_keys, tui->help_footer, tui->term.rows, tui->term.cols, &plan);
    tui->help_pages = plan.pages;
    if (tui->help_page >= plan.pages)
        tui->help_page = plan.pages - 1;
    tui_help_render(tui->help_canvas, tui->help_keys, tui->help_footer, &plan, tui->help_page, tui->ascii_only);
    tui_blit(tui, tui->help_win, tui->help_canvas);
    touchwin(tui->help_win);
    wnoutrefresh(tui->help_win);
}

/* ---------------------------------------------------------------- a frame */

void tui_draw_too_small(Tui *tui)
{
    werase(stdscr);
    int rows = tui->term.rows, cols = tui->term.cols;
    char size[64];
    snprintf(size, sizeof size, _("%dx%d, needs %dx%d"), cols, rows, TUI_MIN_COLS, TUI_MIN_ROWS);
    bool small = cols < TUI_MIN_COLS || rows < TUI_MIN_ROWS;
    const char *lines[] = {small ? _("terminal too small") : _("cannot draw at this size"), size,
                           small ? _("enlarge it, or q quits") : _("resize it, or q quits")};
    for (int k = 0; k < 3; k++) {
        int length = (int)strlen(lines[k]);
        int x = (cols - length) / 2;
        mvwaddnstr(stdscr, rows / 2 - 1 + k, x < 0 ? 0 : x, lines[k], cols);
    }
    wnoutrefresh(stdscr);
}

void tui_draw_panes(Tui *tui)
{
    for (int i = 0; i < tui->pane_count; i++)
        draw_pane(tui, i);
}

void tui_draw(Tui *tui)
{
    if (tui->too_small) {
        tui_draw_too_small(tui);
        doupdate();
        return;
    }
    tui_draw_panes(tui);
    draw_status(tui);
    const Solver *first = tui->panes[0].solver;
    if (first->params.integrator == INTEGRATOR_IMPLICIT &&
        (first->cg_iterations != tui->panel_cg_iterations || first->cg_residual != tui->panel_cg_residual))
        tui->panel_dirty = true; /* the panel shows the last solve */
    if (tui->panel_shown && (tui->panel_dirty || tui->help))
        draw_panel(tui);
    if (tui->help)
        tui_draw_help(tui);
    doupdate();
    tui->frames++;
}
