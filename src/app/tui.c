/* tui.c - the sandbox: its command line and its frame loop, at the top of
 * the terminal files (tui_state.h lists them, each calling only those
 * below it).
 *
 * The loop draws a frame when something moved, steps the panes on the
 * clock (tui_panes.c), and blocks in poll() on the keyboard while paused,
 * frozen by an explosion, settled or idle, using no CPU. The key L asks for
 * the lessons (tui_input.c); the loop then lends the lesson menu
 * (tui_lesson.c) its session and takes the sandbox back after.
 */
#include "tui.h"

#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/scene.h"
#include "cli.h"
#include "config.h"
#include "i18n.h"
#include "presets.h"
#include "tui_compare.h"
#include "tui_draw.h"
#include "tui_input.h"
#include "tui_lesson.h"
#include "tui_panes.h"
#include "tui_session.h"

static const char usage[] = N_("usage: clothsim [--scene NAME] [--set KEY=VALUE]...\n"
                               "                [--compare KEY=V1,V2[,V3,V4] | --preset NAME]\n"
                               "                [--fps N] [--ascii]\n"
                               "                [--high-contrast] [--background=dark|light|auto]\n"
                               "                [--stats] [--record FILE.cast]\n"
                               "\n"
                               "The interactive sandbox: the curtain scene (or NAME) running in the terminal.\n"
                               "  --scene NAME        curtain (default), flag, chain, net, drape, tear, heap\n"
                               "                      (clothsim scenes)\n"
                               "  --set KEY=VALUE     change one setting; repeat as needed (clothsim params)\n"
                               "  --compare KEY=V1,V2 two to four panes, the same scene differing in KEY,\n"
                               "                      stepped in lockstep\n"
                               "                      (e.g. --compare integrator=euler,verlet)\n"
                               "  --preset NAME       a ready comparison, as the keys e, i and T open it:\n"
                               "                      euler-verlet, iterations (2, 10 and 40 passes) or\n"
                               "                      tearing (naive against hysteresis); --set changes it\n"
                               "  --fps N             frames drawn per second (default 30, 1 to 240)\n"
                               "  --ascii             plain ASCII glyphs (the default when the locale is not\n"
                               "                      UTF-8)\n"
                               "  --high-contrast     bold, bright drawing for projectors\n"
                               "  --background=WHICH  colours for a dark or light terminal; auto (the default)\n"
                               "                      asks COLORFGBG, then the terminal itself (B flips it)\n"
                               "  --stats             on exit, print the frames drawn and the bytes sent\n"
                               "  --record FILE.cast  record the session as an asciicast v2 file\n"
                               "\n"
                               "The sandbox solves in order=sequential, as clothsim run and the lessons do:\n"
                               "one link at a time in the listed order, run many at a time on the fast path\n"
                               "with the same bits (--set order=colored: colour by colour).\n"
                               "Press ? in the sandbox for the keys; man clothsim tells all.\n");

/* ---------------------------------------------------------------- panes */

/* ---------------------------------------------------------------- the clock */

static bool all_exploded(const Tui *tui)
{
    for (int i = 0; i < tui->pane_count; i++)
        if (!tui->panes[i].solver->exploded)
            return false;
    return true;
}

/* At rest with nothing to move it: no wind, no moving sphere, no pulling
 * hands, no grab, and every particle slower than TUI_SETTLED_SPEED. Then the
 * sandbox stops stepping and waits for a key, using no CPU. */
#define TUI_SETTLED_SPEED 1e-3f

static bool solver_settled(const Solver *s)
{
    const Params *p = &s->params;
    bool windy = p->dim == 3 && (p->wind_x != 0.0 || p->wind_z != 0.0 || p->turbulence != 0.0);
    bool sphere_moving = p->collider == COLLIDER_SPHERE && p->sphere_travel != 0.0;
    bool pulled = p->scene == SCENE_TEAR && p->pull_speed != 0.0;
    if (windy || sphere_moving || pulled || s->grabbed >= 0 || s->exploded)
        return false;
    const Cloth *c = s->cloth;
    float limit = TUI_SETTLED_SPEED * TUI_SETTLED_SPEED;
    for (int i = 0; i < c->count; i++)
        if (c->vx[i] * c->vx[i] + c->vy[i] * c->vy[i] + c->vz[i] * c->vz[i] > limit)
            return false;
    return true;
}

static bool all_settled(const Tui *tui)
{
    for (int i = 0; i < tui->pane_count; i++)
        if (!tui->panes[i].solver->exploded && !solver_settled(tui->panes[i].solver))
            return false;
    return true;
}

static bool animating(const Tui *tui)
{
    return !tui->paused && !tui->settled && (!all_exploded(tui) || tui_blasts_flying(tui));
}

/* Steps the panes for the time since the last call; returns how many steps. */
static int advance(Tui *tui, double now)
{
    double elapsed = now - tui->last_time;
    tui->last_time = now;
    return tui_advance(tui, elapsed * tui_blowup_slowdown(tui), true);
}

/* ---------------------------------------------------------------- options */

static bool parse_compare(Tui *tui, const char *text)
{
    const char *equals = strchr(text, '=');
    char key[64];
    if (!equals || equals == text || (size_t)(equals - text) >= sizeof key) {
        cli_error("--compare %s: expected KEY=V1,V2[,V3,V4] (e.g. integrator=euler,verlet)", text);
        return false;
    }
    memcpy(key, text, (size_t)(equals - text));
    key[equals - text] = '\0';
    const ParamInfo *info = params_find(key);
    if (!info) {
        const char *suggestion = params_suggest(key);
        if (suggestion)
            cli_error("--compare %s: unknown key '%s' (did you mean '%s'? clothsim params lists them)", text, key,
                      suggestion);
        else
            cli_error("--compare %s: unknown key '%s' (clothsim params lists them)", text, key);
        return false;
    }
    if (info->effect == EFFECT_REBUILD && strcmp(key, "scene") == 0) {
        cli_error("--compare %s: the panes must show the same scene", text);
        return false;
    }
    int count = 0;
    const char *p = equals + 1;
    while (count <= TUI_MAX_PANES) {
        const char *comma = strchr(p, ',');
        size_t length = comma ? (size_t)(comma - p) : strlen(p);
        if (count == TUI_MAX_PANES) {
            cli_error("--compare %s: at most %d values", text, TUI_MAX_PANES);
            return false;
        }
        if (length == 0 || length >= sizeof tui->compare_values[0]) {
            cli_error("--compare %s: value %d is %s", text, count + 1, length ? _("too long") : _("empty"));
            return false;
        }
        memcpy(tui->compare_values[count], p, length);
        tui->compare_values[count][length] = '\0';
        Params check = tui->base;
        char err[TEXT_MESSAGE_SIZE];
        if (!params_set(&check, key, tui->compare_values[count], err, sizeof err) ||
            !scene_validate(&check, err, sizeof err)) {
            cli_error("--compare %s: %s", text, err);
            return false;
        }
        count++;
        if (!comma)
            break;
        p = comma + 1;
    }
    if (count < 2) {
        cli_error("--compare %s: give two to four values, separated by commas", text);
        return false;
    }
    tui->compare_key = info;
    tui->pane_count = count;
    return true;
}

/* --preset NAME: the preset's scene and settings, the person's --set on
 * top (a teacher's script may change one), and its comparison. Returns -1
 * to go on, or the exit status. */
static int parse_preset(Tui *tui, const char *name, const char *compare, const CliSettings *settings, int argc,
                        char **argv)
{
    const Preset *preset = preset_find(name);
    if (!preset) {
        char names[128];
        preset_names(names, sizeof names);
        const char *suggestion = preset_suggest(name);
        if (suggestion)
            cli_error("--preset %s: unknown preset (did you mean '%s'? the presets: %s)", cli_cut(name, CLI_CUT_WORD),
                      suggestion, names);
        else
            cli_error("--preset %s: unknown preset (the presets: %s)", cli_cut(name, CLI_CUT_WORD), names);
        return EXIT_USAGE;
    }
    if (compare) {
        cli_error("--preset %s: a preset is a comparison already (drop --compare)", name);
        return EXIT_USAGE;
    }
    for (int k = 1; k < argc; k++)
        if (strcmp(argv[k], "--scene") == 0 || strncmp(argv[k], "--scene=", 8) == 0) {
            cli_error("--preset %s: the preset chooses its scene (drop --scene)", name);
            return EXIT_USAGE;
        }
    char err[TEXT_MESSAGE_SIZE];
    Params params;
    preset_params(preset, &params, err, sizeof err);
    for (int k = 0; k < settings->assignment_count; k++)
        if (!params_assign(&params, settings->assignments[k], err, sizeof err)) {
            cli_error("--set %s: %s", cli_cut(settings->assignments[k], CLI_CUT_WORD), err);
            return EXIT_USAGE;
        }
    if (!scene_validate(&params, err, sizeof err)) {
        cli_error("%s", err);
        return EXIT_USAGE;
    }
    tui->base = params;
    tui->pane_count = 1;
    if (!parse_compare(tui, preset->compare))
        return EXIT_USAGE; /* a --set the preset's values refuse: said */
    params_set(&tui->base, tui->compare_key->name, tui->compare_values[0], err, sizeof err);
    tui->preset = preset;
    params_default(&tui->before_preset, SCENE_CURTAIN); /* its key again: the sandbox as it starts */
    tui->mode_before_preset = tui->render.mode;
    return -1;
}

/* Fills tui from argv. Returns -1 to go on, or the exit status. */
static int parse_options(Tui *tui, int argc, char **argv)
{
    CliSettings settings = {.scene = SCENE_CURTAIN};
    const char *compare = NULL, *preset_name = NULL;
    int i = 0, next;
    while ((next = cli_next_argument(&settings, argc, argv, &i)) > 0) {
        int matched = 0;
        const char *value;
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(_(usage), stdout);
            return 0;
        } else if ((matched = tui_screen_option(tui, argc, argv, &i)) != 0) {
            if (matched < 0)
                return EXIT_USAGE;
        } else if ((value = cli_option_value(argc, argv, &i, "--compare", &matched)) || matched) {
            if (!value)
                return EXIT_USAGE;
            compare = value;
        } else if ((value = cli_option_value(argc, argv, &i, "--preset", &matched)) || matched) {
            if (!value)
                return EXIT_USAGE;
            preset_name = value;
        } else {
            cli_error("unknown option '%s' (clothsim --help lists the options)", arg);
            return EXIT_USAGE;
        }
    }
    if (next < 0)
        return EXIT_USAGE;
    if (preset_name)
        return parse_preset(tui, preset_name, compare, &settings, argc, argv);
    if (!cli_build_params(&settings, &tui->base))
        return EXIT_USAGE;
    tui->pane_count = 1;
    if (compare && !parse_compare(tui, compare))
        return EXIT_USAGE;
    if (tui->compare_key) {
        char err[TEXT_MESSAGE_SIZE];
        params_set(&tui->base, tui->compare_key->name, tui->compare_values[0], err, sizeof err);
    }
    return -1;
}

/* ---------------------------------------------------------------- the loop */

/* L: the lesson menu, then the sandbox back as it was. */
static void open_lessons(Tui *tui)
{
    /* a lesson borrows the panes, the layout and the help: the sandbox's are
     * put aside and come back whole */
    TuiPane *panes = malloc(sizeof tui->panes);
    if (!panes) {
        tui_message(tui, "out of memory: cannot open the lessons");
        return;
    }
    tui_grab_release(tui);
    tui_layout_free(tui);
    memcpy(panes, tui->panes, sizeof tui->panes);
    memset(tui->panes, 0, sizeof tui->panes);
    int pane_count = tui->pane_count;
    const char *const *help_keys = tui->help_keys;
    const char *help_footer = tui->help_footer;
    RenderMode mode = tui->render.mode;
    tui->help = false;
    int status = tui_lessons_menu(tui);
    for (int i = 0; i < TUI_MAX_PANES; i++) /* the lesson's, freed with it: only its canvases are left */
        if (tui->panes[i].view || tui->panes[i].plots) {
            canvas_destroy(tui->panes[i].view);
            canvas_destroy(tui->panes[i].plots);
        }
    memcpy(tui->panes, panes, sizeof tui->panes);
    free(panes);
    tui->pane_count = pane_count;
    tui->lesson_layout = false;
    tui->help_keys = help_keys;
    tui->help_footer = help_footer;
    tui->help = false;
    tui->render.mode = mode;
    tui->blowing_up = false;
    tui->last_time = tui_now();
    tui->accumulator = 0.0;
    tui_layout(tui);
    if (status == 0)
        tui_message(tui, "back in the sandbox: L opens the lessons again");
}

static void read_keys(Tui *tui, int *empty_reads)
{
    int got = 0, key;
    /* the keys after L are the lesson menu's: left for it to read */
    while (!tui->quit && !tui->lessons_asked && (key = tui_read_key()) != ERR) {
        got++;
        tui->settled = false; /* any key may have set something in motion */
        tui->calm_since = -1.0;
        tui_handle_key(tui, key);
    }
    /* readable yet nothing to read, again and again: the input has ended */
    *empty_reads = got ? 0 : *empty_reads + 1;
    if (*empty_reads >= 3)
        tui->quit = true;
}

static int run(Tui *tui)
{
    double frame = 1.0 / tui->fps;
    double now = tui_now(), next_frame = now, count_start = now;
    int frames_counted = 0;
    tui->last_time = now;
    bool dirty = true;
    int empty_reads = 0;
    while (!tui->quit) {
        int quit_status = tui_loop_events(tui, &dirty);
        if (quit_status)
            return quit_status;
        now = tui_now();
        bool moving = animating(tui);
        if (moving && now >= next_frame) {
            /* judged on a step just taken: a cloth at rest before its first
             * step has not settled, it has not started */
            if (advance(tui, now) > 0) {
                /* and calm for a whole simulated second: a swing passes
                 * through rest at each end */
                double t = tui->panes[0].solver->time;
                if (!all_settled(tui))
                    tui->calm_since = -1.0;
                else if (tui->calm_since < 0.0)
                    tui->calm_since = t;
                tui->settled = tui->calm_since >= 0.0 && t - tui->calm_since >= 1.0;
            }
            tui->physics_seconds += tui_now() - now;
            dirty = true;
            next_frame += frame;
            if (next_frame < now)
                next_frame = now + frame; /* behind: do not draw a burst to catch up */
            /* frames drawn over the last second or so */
            frames_counted++;
            if (now - count_start >= 1.0) {
                tui->fps_measured = frames_counted / (now - count_start);
                frames_counted = 0;
                count_start = now;
            }
        }
        bool message_showing = tui->message[0] && now - tui->message_time < tui->message_seconds;
        if (tui->message[0] && !message_showing) {
            tui->message[0] = '\0';
            dirty = true;
        }
        if (dirty) {
            double draw_start = tui_now();
            tui_sample(tui, false);
            tui_blasts_update(tui, !tui->paused);
            tui_draw(tui);
            tui->draw_seconds += tui_now() - draw_start;
            dirty = false;
        }
        bool moving_now = animating(tui);
        if (!moving_now) {
            tui->last_time = tui_now(); /* paused time is not owed to the solver */
            tui->fps_measured = 0.0;
            frames_counted = 0;
            count_start = tui->last_time;
        }
        switch (tui_term_wait(&tui->term, tui_wait_ms(tui, moving_now, next_frame))) {
        case WAIT_INPUT:
            read_keys(tui, &empty_reads);
            if (tui->lessons_asked) {
                tui->lessons_asked = false;
                open_lessons(tui);
            }
            dirty = true;
            break;
        case WAIT_HANGUP:
            tui->quit = true;
            break;
        case WAIT_SIGNAL:
        case WAIT_OTHER: /* none in the sandbox */
        case WAIT_TIMEOUT:
            break;
        }
    }
    return 0;
}

int tui_main(int argc, char **argv)
{
    Tui *tui = calloc(1, sizeof *tui);
    if (!tui) {
        cli_error("out of memory");
        return 1;
    }
    tui_defaults(tui);
    if (!config_apply(tui, argc, argv)) { /* the lasting choices; the command line wins */
        free(tui);
        return EXIT_USAGE;
    }
    int status = parse_options(tui, argc, argv);
    if (status >= 0) {
        free(tui);
        return status;
    }
    tui_locale(tui);

    if (!tui_rebuild_panes(tui)) {
        cli_error("%s", tui->message);
        tui_panes_destroy(tui);
        free(tui);
        return 1;
    }
    tui->message[0] = '\0';

    /* the recording is opened before the terminal is touched (a path that
     * cannot be written is a mistake on the command line, as for --csv),
     * into a temporary file that replaces the old recording only once the
     * whole session is written */
    char err[CLI_CUT_PATH * 2 + 200];
    Output recording = {0};
    if (tui->record_path) {
        if (!output_open(&recording, "--record", tui->record_path, err, sizeof err)) {
            cli_error("%s", err);
            tui_panes_destroy(tui);
            free(tui);
            return EXIT_USAGE;
        }
        tui->recording = &recording;
    }
    if (!tui_session_start(tui, err, sizeof err)) {
        cli_error("%s", err);
        status = tui->term.refused ? 2 : 1;
        output_discard(&recording); /* an old recording stays as it was */
        tui_panes_destroy(tui);
        free(tui);
        return status;
    }
    tui_layout(tui); /* if it fails, a notice says so and a resize tries again */
    if (!tui_start_preset(tui))
        tui_presets_hint(tui);
    tui_sample(tui, true);
    status = run(tui);
    tui_session_stop(tui);
    if (!output_close(&recording, err, sizeof err)) {
        cli_error("%s", err);
        if (status == 0)
            status = 1;
    }

    if (tui->stats)
        tui_print_stats(tui);
    tui_panes_destroy(tui);
    free(tui);
    return status;
}
