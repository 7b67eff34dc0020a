/* headless.c - the subcommands that need no terminal: run, params, scenes.
 *
 * `clothsim run` steps a scene and writes its metrics as CSV and its final
 * state as a dump. Same arguments, same bytes out, every time.
 */
#include "headless.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "core/metrics.h"
#include "core/solver.h"
#include "render/render.h"
#include "i18n.h"

/* Help and listings fit a terminal of this many columns. */
#define TEXT_COLUMNS 80

/* Writes text from column `column` (already written on the line) on lines of
 * at most TEXT_COLUMNS, breaking after a space or a comma; the lines after
 * the first start with `indent` spaces. Ends the last line. */
/* Characters of a UTF-8 text: its columns on a terminal (no wide glyphs here). */
static int utf8_cells(const char *text)
{
    int cells = 0;
    for (; *text; text++)
        cells += ((unsigned char)*text & 0xC0) != 0x80;
    return cells;
}

static void print_wrapped(const char *text, int column, int indent)
{
    while (*text) {
        int room = TEXT_COLUMNS - column;
        /* columns are characters, not bytes: a translation in Cyrillic
         * takes two bytes a letter */
        size_t length = 0, cut = 0;
        int cells = 0;
        while (text[length] && cells < room) {
            if (text[length] == ' ' || text[length] == ',')
                cut = length + 1;
            length++;
            while (((unsigned char)text[length] & 0xC0) == 0x80)
                length++;
            cells++;
        }
        if (text[length])
            length = cut > 0 ? cut : (length > 0 ? length : 1); /* a word longer than the line: cut it */
        size_t shown = length;
        while (shown > 0 && text[shown - 1] == ' ')
            shown--;
        printf("%.*s\n", (int)shown, text);
        text += length;
        while (*text == ' ')
            text++;
        if (*text)
            printf("%*s", indent, "");
        column = indent;
    }
}

static const char run_usage[] = N_("usage: clothsim run [--scene NAME] [--set KEY=VALUE]...\n"
                                   "                    [--steps N | --seconds S] [--every K]\n"
                                   "                    [--csv PATH|-] [--dump PATH|-]\n"
                                   "                    [--frames [--size WxH] [--mode MODE] [--ascii]]\n"
                                   "\n"
                                   "Steps a scene without a terminal and writes what it measures.\n"
                                   "  --scene NAME     curtain (default), flag, chain, net  (clothsim scenes)\n"
                                   "  --set KEY=VALUE  change one setting; repeat as needed (clothsim params)\n"
                                   "  --steps N        time steps of dt to run (default 600)\n"
                                   "  --seconds S      or: simulated seconds to run (rounded up to whole steps)\n"
                                   "  --every K        write a CSV row every K steps, and after the last (default 1)\n"
                                   "  --csv PATH|-     metrics as CSV, '-' for standard output (the default when\n"
                                   "                   neither --csv nor --dump is given)\n"
                                   "  --dump PATH|-    the final state: '# COLS ROWS', then 'x y z' per particle\n"
                                   "  --frames         draw the scene as text on standard output every K steps\n"
                                   "                   and after the last, each under a line '-- step N, t = T s'\n"
                                   "  --size WxH       frame size in cells (default 80x24)\n"
                                   "  --mode NAME      shaded (default), wire, strain, points\n"
                                   "  --ascii          frames in plain ASCII instead of Unicode braille\n"
                                   "\n"
                                   "Exit status: 0 done, 1 a write failed, 2 a mistake in the arguments (nothing\n"
                                   "is run or written), 3 the cloth exploded (the run stops on its last good step),\n"
                                   "4 integrator=implicit: the solve of some substeps did not converge (the run\n"
                                   "goes on; the CSV's cg_unconverged counts them).\n"
                                   "\n"
                                   "CSV columns:\n") /* metrics_csv_header follows, wrapped */;

/* A CSV row waits here until the next step is known to be good: an
 * explosion then takes the row of the step it froze on, rather than adding a
 * second row with the same step and time. */
typedef struct CsvRows {
    Output *out;
    char pending[512];
    long long pending_step; /* -1: nothing waiting */
} CsvRows;

static void csv_flush(CsvRows *rows)
{
    if (rows->out && rows->pending_step >= 0)
        fputs(rows->pending, rows->out->f);
    rows->pending_step = -1;
}

static void csv_row(CsvRows *rows, const Solver *solver)
{
    if (!rows->out)
        return;
    if (rows->pending_step != (long long)solver->step)
        csv_flush(rows);
    Metrics m;
    metrics_compute(solver, &m);
    metrics_format_csv(&m, rows->pending, sizeof rows->pending);
    rows->pending_step = (long long)solver->step;
}

static void write_dump(FILE *out, const Cloth *cloth)
{
    fprintf(out, "# %d %d\n", cloth->cols, cloth->rows);
    for (int i = 0; i < cloth->count; i++)
        fprintf(out, "%.9g %.9g %.9g\n", cloth->x[i], cloth->y[i], cloth->z[i]);
}

/* Frames as text: a canvas, a camera framed on the scene once at the start,
 * and the renderer. No terminal is involved. */
typedef struct FrameWriter {
    Canvas *canvas;
    Camera camera;
    RenderOptions options;
    char *text;
    size_t text_size;
    bool written;        /* a frame was written, */
    long long last_step; /* ... of this step */
} FrameWriter;

static bool frames_open(FrameWriter *w, const Solver *solver, int width, int height, int mode, bool ascii)
{
    w->canvas = canvas_create(width, height);
    w->text_size = (size_t)width * height * 4 + (size_t)height + 1;
    w->text = malloc(w->text_size);
    if (!w->canvas || !w->text || !render_reserve(w->canvas, solver->cloth))
        return false;
    render_options_default(&w->options);
    w->options.mode = (RenderMode)mode;
    w->options.glyphs = ascii ? GLYPHS_ASCII : GLYPHS_BRAILLE;
    camera_init(&w->camera, solver->params.dim, width, height);
    camera_fit_solver(&w->camera, solver);
    return true;
}

static void frames_write(FrameWriter *w, Output *out, const Solver *solver)
{
    if (w->written && w->last_step == (long long)solver->step)
        return; /* an explosion froze the cloth on a step already drawn */
    render_solver(w->canvas, &w->camera, solver, &w->options);
    canvas_to_utf8(w->canvas, w->text, w->text_size);
    fprintf(out->f, "-- step %lld, t = %.4f s\n%s", (long long)solver->step, solver->time, w->text);
    w->written = true;
    w->last_step = (long long)solver->step;
}

static void frames_close(FrameWriter *w)
{
    canvas_destroy(w->canvas);
    free(w->text);
}

static bool parse_size(const char *text, int *width, int *height)
{
    char *end = NULL;
    long w = strtol(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X')) {
        cli_error("--size %s: expected WIDTHxHEIGHT in cells, e.g. 80x24", cli_cut(text, CLI_CUT_WORD));
        return false;
    }
    const char *rest = end + 1;
    long h = strtol(rest, &end, 10);
    if (end == rest || *end != '\0') {
        cli_error("--size %s: expected WIDTHxHEIGHT in cells, e.g. 80x24", cli_cut(text, CLI_CUT_WORD));
        return false;
    }
    if (w < 8 || w > 1000 || h < 4 || h > 1000) {
        cli_error("--size %s: out of range (8x4 to 1000x1000)", cli_cut(text, CLI_CUT_WORD));
        return false;
    }
    *width = (int)w;
    *height = (int)h;
    return true;
}

int headless_run_options(int argc, char **argv, RunOptions *o)
{
    CliSettings settings = {.scene = SCENE_CURTAIN};
    long steps = 600, every = 1;
    double seconds = -1.0;
    const char *csv_path = NULL, *dump_path = NULL;
    bool frames = false, ascii = false;
    int width = 80, height = 24, mode = RENDER_SHADED;
    int i = 0, next;
    while ((next = cli_next_argument(&settings, argc, argv, &i)) > 0) {
        int matched = 0;
        const char *value;
        if ((value = cli_option_value(argc, argv, &i, "--steps", &matched)) || matched) {
            if (!value || !cli_parse_long("--steps", value, 0, 1000000000L, &steps))
                return EXIT_USAGE;
        } else if ((value = cli_option_value(argc, argv, &i, "--seconds", &matched)) || matched) {
            if (!value || !cli_parse_double("--seconds", value, 0.0, 1e7, &seconds))
                return EXIT_USAGE;
        } else if ((value = cli_option_value(argc, argv, &i, "--every", &matched)) || matched) {
            if (!value || !cli_parse_long("--every", value, 1, 1000000000L, &every))
                return EXIT_USAGE;
        } else if ((value = cli_option_value(argc, argv, &i, "--csv", &matched)) || matched) {
            if (!value)
                return EXIT_USAGE;
            csv_path = value;
        } else if ((value = cli_option_value(argc, argv, &i, "--dump", &matched)) || matched) {
            if (!value)
                return EXIT_USAGE;
            dump_path = value;
        } else if ((value = cli_option_value(argc, argv, &i, "--size", &matched)) || matched) {
            if (!value || !parse_size(value, &width, &height))
                return EXIT_USAGE;
        } else if ((value = cli_option_value(argc, argv, &i, "--mode", &matched)) || matched) {
            if (!value)
                return EXIT_USAGE;
            mode = params_lookup_name(render_mode_names, value);
            if (mode < 0) {
                cli_error("--mode %s: unknown render mode (one of shaded|wire|strain|points)",
                          cli_cut(value, CLI_CUT_WORD));
                return EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "--frames") == 0) {
            frames = true;
        } else if (strcmp(argv[i], "--ascii") == 0) {
            ascii = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("%s  ", _(run_usage));
            print_wrapped(metrics_csv_header, 2, 2);
            return EXIT_SUCCESS;
        } else {
            cli_error("run: unknown argument '%s' (clothsim run --help lists the options)",
                      cli_cut(argv[i], CLI_CUT_WORD));
            return EXIT_USAGE;
        }
    }
    if (next < 0)
        return EXIT_USAGE;
    Params params;
    if (!cli_build_params(&settings, &params))
        return EXIT_USAGE;
    if (seconds >= 0.0) {
        double count = seconds / params.dt;
        if (count > 1e9) {
            cli_error("--seconds %g: that is more than 1000000000 steps of dt = %g s", seconds, params.dt);
            return EXIT_USAGE;
        }
        steps = (long)count;
        if ((double)steps * params.dt < seconds - 1e-9 * params.dt)
            steps++;
    }
    if (!csv_path && !dump_path && !frames)
        csv_path = "-";
    int to_stdout =
        (csv_path && output_same_file(csv_path, "-")) + (dump_path && output_same_file(dump_path, "-")) + frames;
    if (to_stdout > 1) {
        cli_error("--csv -, --dump - and --frames all write to standard output: give a file to all but one");
        return EXIT_USAGE;
    }

    if (csv_path && dump_path && output_same_file(csv_path, dump_path)) {
        cli_error("--csv %s and --dump %s are the same file: give each its own", cli_cut(csv_path, CLI_CUT_PATH),
                  cli_cut(dump_path, CLI_CUT_PATH));
        return EXIT_USAGE;
    }
    *o = (RunOptions){.params = params,
                      .steps = steps,
                      .every = every,
                      .csv_path = csv_path,
                      .dump_path = dump_path,
                      .frames = frames,
                      .ascii = ascii,
                      .width = width,
                      .height = height,
                      .mode = mode};
    return -1;
}

int headless_run(int argc, char **argv)
{
    RunOptions options;
    int parsed = headless_run_options(argc, argv, &options);
    if (parsed >= 0)
        return parsed;
    Params params = options.params;
    long steps = options.steps, every = options.every;
    const char *csv_path = options.csv_path, *dump_path = options.dump_path;
    bool frames = options.frames, ascii = options.ascii;
    int width = options.width, height = options.height, mode = options.mode;

    /* every output is opened before anything runs: a path that cannot be
     * written stops the run before it starts, and no other file is touched */
    Output csv = {0}, dump = {0}, frame_out = {0};
    char err[CLI_CUT_PATH * 2 + 200];
    if ((csv_path && !output_open(&csv, "--csv", csv_path, err, sizeof err)) ||
        (dump_path && !output_open(&dump, "--dump", dump_path, err, sizeof err)) ||
        (frames && !output_open(&frame_out, "--frames", "-", err, sizeof err))) {
        cli_error("%s", err);
        output_discard(&csv);
        output_discard(&dump);
        return EXIT_USAGE;
    }
    Solver *solver = solver_create(&params);
    if (!solver) {
        output_discard(&csv);
        output_discard(&dump);
        cli_error("out of memory building a %d x %d cloth", params.cols, params.rows);
        return 1;
    }
    solver_start_threads(solver);
    FrameWriter writer = {0};
    if (frames && !frames_open(&writer, solver, width, height, mode, ascii)) {
        frames_close(&writer);
        output_discard(&csv);
        output_discard(&dump);
        solver_destroy(solver);
        cli_error("out of memory for a %dx%d frame", width, height);
        return 1;
    }
    CsvRows rows = {.out = csv_path ? &csv : NULL, .pending_step = -1};
    if (csv_path)
        fprintf(csv.f, "%s\n", metrics_csv_header);
    csv_row(&rows, solver);
    if (frames)
        frames_write(&writer, &frame_out, solver);
    bool exploded = false;
    double unconverged_time = 0.0; /* when a solve first did not converge */
    for (long n = 1; n <= steps && output_check(&csv) && output_check(&frame_out); n++) {
        int64_t unconverged = solver->cg_unconverged;
        solver_step(solver);
        if (unconverged == 0 && solver->cg_unconverged > 0)
            unconverged_time = solver->time;
        if (solver->exploded) {
            csv_row(&rows, solver);
            if (frames)
                frames_write(&writer, &frame_out, solver);
            cli_error("exploded at t = %.4f s (step %lld); frozen on the last good step", solver->exploded_time,
                      (long long)solver->exploded_step + 1);
            exploded = true;
            break;
        }
        if (n % every == 0 || n == steps) {
            csv_row(&rows, solver);
            if (frames)
                frames_write(&writer, &frame_out, solver);
        }
    }
    csv_flush(&rows);
    frames_close(&writer);
    if (dump_path)
        write_dump(dump.f, solver->cloth);
    int status = exploded ? EXIT_EXPLODED : 0;
    if (!exploded && solver->cg_unconverged > 0) {
        cli_error("the implicit solve did not converge in %lld substeps, the first by t = %.4f s "
                  "(cg_max_iterations %d)",
                  (long long)solver->cg_unconverged, unconverged_time, solver->params.cg_max_iterations);
        status = EXIT_UNCONVERGED;
    }
    solver_destroy(solver);
    /* the files stand or fall together: one that failed leaves the others
     * as they were */
    Output *outputs[] = {&csv, &dump, &frame_out};
    for (int k = 0; k < 3; k++)
        if (!output_finish(outputs[k], err, sizeof err)) {
            cli_error("%s", err);
            status = 1;
        }
    for (int k = 0; k < 3; k++)
        if (status == 1)
            output_discard(outputs[k]);
        else if (!output_close(outputs[k], err, sizeof err)) {
            cli_error("%s", err);
            status = 1;
        }
    return status;
}

static const char params_usage[] = N_("usage: clothsim params [--scene NAME] [--set KEY=VALUE]...\n"
                                      "\n"
                                      "Every setting of the scene (default curtain), with the changes --set makes:\n"
                                      "its key, value, unit and range, then what it means. A setting marked\n"
                                      "[on reset] takes effect when the scene is built again.\n");

static const char scenes_usage[] = N_("usage: clothsim scenes\n"
                                      "\n"
                                      "The scenes --scene NAME builds, each with what it shows.\n");

static bool wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    return false;
}

int headless_params(int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        fputs(_(params_usage), stdout);
        return EXIT_SUCCESS;
    }
    CliSettings settings = {.scene = SCENE_CURTAIN};
    int i = 0, next = cli_next_argument(&settings, argc, argv, &i);
    if (next < 0)
        return EXIT_USAGE;
    if (next) {
        cli_error("params: unknown argument '%s' (it takes --scene NAME and --set KEY=VALUE)",
                  cli_cut(argv[i], CLI_CUT_WORD));
        return EXIT_USAGE;
    }
    Params params;
    if (!cli_build_params(&settings, &params))
        return EXIT_USAGE;
    printf(_("Settings of scene '%s' (change any with --set KEY=VALUE):\n\n"), scene_names[settings.scene]);
    /* a key's line starts at the left edge (the bash completion takes the
     * first word of those), what it means follows on indented lines */
    printf("%-17s %-12s %-8s %s\n", "KEY", "VALUE", "UNIT", "RANGE");
    printf("    MEANING\n");
    for (int k = 0; k < params_count; k++) {
        const ParamInfo *info = &params_table[k];
        char value[64], range[200], line[400], meaning[600];
        params_format(&params, info, value, sizeof value);
        params_describe_range(info, range, sizeof range);
        const char *unit = info->unit[0] ? _(info->unit) : "";
        int n = snprintf(line, sizeof line, "%-17s %-12s %s%*s", info->name, value, unit,
                         utf8_cells(unit) < 8 ? 9 - utf8_cells(unit) : 1, "");
        if (utf8_cells(line) + utf8_cells(range) <= TEXT_COLUMNS)
            printf("%s%s\n", line, range);
        else {
            while (n > 0 && line[n - 1] == ' ')
                line[--n] = '\0';
            printf("%s\n    ", line); /* the range on a line of its own */
            print_wrapped(range, 4, 4);
        }
        snprintf(meaning, sizeof meaning, "%s%s", _(info->help),
                 info->effect == EFFECT_REBUILD ? _(" [on reset]") : "");
        printf("    ");
        print_wrapped(meaning, 4, 4);
    }
    return 0;
}

int headless_scenes(int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        fputs(_(scenes_usage), stdout);
        return EXIT_SUCCESS;
    }
    if (argc > 1) {
        cli_error("scenes takes no arguments");
        return EXIT_USAGE;
    }
    for (int s = 0; s < SCENE_COUNT; s++) {
        printf("%-8s ", scene_names[s]);
        print_wrapped(_(scene_summaries[s]), 9, 9);
    }
    return 0;
}
