/* tui_session.c - what the sandbox, the lessons and a class's screens
 * share around their loops: the screen's options and defaults, the locale,
 * the session's start and end on the terminal, and the start of each turn
 * of a frame loop. */
#include "tui_session.h"

#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "tui_draw.h"
#include "tui_input.h"
#include "tui_sliders.h"

/* The options the sandbox and the lessons share: how the screen is drawn and
 * what is kept of it. 1 when argv[*i] was one (its value taken), 0 when it
 * is not one of them, -1 when its value is wrong (said on stderr). */
int tui_screen_option(Tui *tui, int argc, char **argv, int *i)
{
    int matched = 0;
    const char *value;
    const char *arg = argv[*i];
    if (strcmp(arg, "--ascii") == 0) {
        tui->ascii_only = true;
    } else if (strcmp(arg, "--stats") == 0) {
        tui->stats = true;
    } else if (strcmp(arg, "--high-contrast") == 0) {
        tui->render.high_contrast = true;
    } else if ((value = cli_option_value(argc, argv, i, "--background", &matched)) || matched) {
        if (!value || !tui_parse_background(value, &tui->background_asked))
            return -1;
    } else if ((value = cli_option_value(argc, argv, i, "--fps", &matched)) || matched) {
        long fps;
        if (!value || !cli_parse_long("--fps", value, 1, 240, &fps))
            return -1;
        tui->fps = (int)fps;
    } else if ((value = cli_option_value(argc, argv, i, "--record", &matched)) || matched) {
        if (!value)
            return -1;
        tui->record_path = value;
    } else {
        return 0;
    }
    return 1;
}

/* --stats: what a session cost, on stderr once the terminal is back */
void tui_print_stats(const Tui *tui)
{
    unsigned long frames = tui->frames;
    double per_frame = frames ? 1.0 / (double)frames : 0.0;
    cli_error("%lu frames drawn, %llu bytes written to the terminal (%.0f bytes a frame); "
              "%.2f ms drawing and %.2f ms physics a frame",
              frames, tui->term.bytes, (double)tui->term.bytes * per_frame, 1000.0 * tui->draw_seconds * per_frame,
              1000.0 * tui->physics_seconds * per_frame);
    cli_error("the mouse took %lu particles, moved them %lu times and let go %lu times", tui->mouse_grabs,
              tui->mouse_drags, tui->mouse_throws);
}

void tui_defaults(Tui *tui)
{
    render_options_default(&tui->render);
    tui->fps = 30;
    tui->speed = TUI_SPEED_NORMAL;
    tui->zoom = 1.0f;
    tui->grab_pane = -1;
    tui->calm_since = -1.0;
    tui->help_keys = tui_key_help;
    tui->help_footer = _("mouse: left-drag pulls a particle, right-drag orbits, wheel zooms");
}

void tui_locale(Tui *tui)
{
    setlocale(LC_ALL, "");
    /* numbers in settings and lessons are written with a '.', whatever the
     * language of the terminal: strtod must read them so */
    setlocale(LC_NUMERIC, "C");
    const char *codeset = nl_langinfo(CODESET);
    tui->utf8 = codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
    /* the Linux console's fonts have no braille, and its default font no half
     * blocks or box drawing beyond a few: ASCII there, whatever the locale */
    const char *term = getenv("TERM");
    if (term && strncmp(term, "linux", 5) == 0)
        tui->utf8 = false;
    if (!tui->utf8)
        tui->ascii_only = true;
    tui->render.glyphs = tui->ascii_only ? GLYPHS_ASCII : GLYPHS_BRAILLE;
    tui_sliders_init(tui);
}

#define TUI_MAX_CELLS 10000

/* curses as the sandbox wants it, on a session just started */
static void session_setup(Tui *tui)
{
    set_escdelay(25);
    noecho(); /* ncurses echoes what getch reads unless told */
    curs_set(0);
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    typeahead(-1); /* draw whole frames even while keys arrive */
    tui_colours_init(tui);
    tui_term_mouse_on(&tui->term);
    wnoutrefresh(stdscr); /* stdscr stays untouched after this, so getch never repaints it */
}

/* ncurses takes LINES and COLUMNS over the terminal's own size; one too
 * large for it makes newterm fail, which would be blamed on TERM */
static bool size_from_environment_fits(char *err, size_t err_size)
{
    const char *names[] = {"COLUMNS", "LINES"};
    for (int k = 0; k < 2; k++) {
        const char *value = getenv(names[k]);
        if (value && strtol(value, NULL, 10) > TUI_MAX_CELLS) {
            snprintf(err, err_size,
                     _("%s=%s: a terminal larger than %d cells each way (unset %s, or set the real size)"), names[k],
                     cli_cut(value, CLI_CUT_WORD), TUI_MAX_CELLS, names[k]);
            return false;
        }
    }
    return true;
}

bool tui_session_start(Tui *tui, char *err, size_t err_size)
{
    bool ask = tui_background_from_environment(tui);
    if (!size_from_environment_fits(err, err_size) || !tui_term_start(&tui->term, tui->recording, ask, err, err_size))
        return false;
    if (tui->term.background_known)
        tui->background = colours_background_of(tui->term.background_rgb);
    session_setup(tui);
    return true;
}

bool tui_session_start_measured(Tui *tui, const char *term_name, int cols, int rows, bool *through_pipe, char *err,
                                size_t err_size)
{
    if (!tui_term_start_measured(&tui->term, term_name, cols, rows, through_pipe, err, err_size))
        return false;
    session_setup(tui);
    return true;
}

void tui_session_stop(Tui *tui)
{
    for (int i = 0; i < TUI_MAX_PANES; i++)
        tui_blast_clear(&tui->panes[i].blast);
    tui_layout_free(tui);
    tui_term_stop(&tui->term);
}

/* ---------------------------------------------------------------- a frame loop */

int tui_wait_ms(const Tui *tui, bool running, double next_frame)
{
    double wait;
    if (running)
        wait = next_frame - tui_now();
    else if (tui->message[0])
        wait = tui->message_time + tui->message_seconds - tui_now();
    else
        return -1; /* nothing to do until a key: block */
    return wait > 0.0 ? (int)ceil(wait * 1000.0) : 0;
}

int tui_loop_events(Tui *tui, bool *dirty)
{
    int sig = tui_term_quit_signal();
    if (sig)
        return 128 + sig;
    uint32_t rgb;
    if (tui_term_late_background(&rgb) && tui->background_asked == BACKGROUND_AUTO &&
        colours_background_of(rgb) != tui->background) {
        tui->background = colours_background_of(rgb); /* the terminal answered after the start stopped waiting */
        tui_colours_apply(tui);
        *dirty = true;
    }
    if (tui_term_take_resize(&tui->term)) {
        tui_layout(tui);
        *dirty = true;
    }
    return 0;
}
