/* cli.c - the error funnel and the --scene / --set options. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "app/i18n.h"
#include "core/scene.h"
#include "core/text.h"

void cli_error(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    char message[TEXT_MESSAGE_SIZE];
    vsnprintf(message, sizeof message, _(format), args);
    va_end(args);
    fputs("clothsim: ", stderr);
    cli_say(message);
}

void cli_say(const char *line)
{
    char escaped[4 * TEXT_MESSAGE_SIZE];
    text_escape_controls(line, escaped, sizeof escaped);
    fputs(escaped, stderr);
    fputc('\n', stderr);
}

const char *cli_cut(const char *text, size_t limit)
{
    static char buffers[4][CLI_CUT_PATH + 8];
    static unsigned turn;
    char *out = buffers[turn++ % 4];
    if (limit > CLI_CUT_PATH)
        limit = CLI_CUT_PATH;
    size_t length = strnlen(text, limit + 1);
    if (length <= limit) {
        memcpy(out, text, length + 1);
        return out;
    }
    size_t keep = limit;
    while (keep > 0 && ((unsigned char)text[keep] & 0xC0) == 0x80) /* not inside a character */
        keep--;
    memcpy(out, text, keep);
    memcpy(out + keep, "...", 4);
    return out;
}

const char *cli_option_value(int argc, char **argv, int *i, const char *name, int *matched)
{
    const char *arg = argv[*i];
    size_t len = strlen(name);
    *matched = 0;
    if (strncmp(arg, name, len) != 0)
        return NULL;
    if (arg[len] == '=') {
        *matched = 1;
        return arg + len + 1;
    }
    if (arg[len] != '\0')
        return NULL;
    *matched = 1;
    if (*i + 1 >= argc) {
        cli_error("%s needs a value", name);
        return NULL;
    }
    const char *value = argv[*i + 1];
    if (value[0] == '-' && value[1] == '-' && value[2] != '\0') {
        cli_error("%s needs a value (%s is an option; write %s=%s if that is the value)", name,
                  cli_cut(value, CLI_CUT_WORD), name, cli_cut(value, CLI_CUT_WORD));
        return NULL;
    }
    return argv[++*i];
}

int cli_take_setting(CliSettings *settings, int argc, char **argv, int *i)
{
    int matched = 0;
    const char *value = cli_option_value(argc, argv, i, "--scene", &matched);
    if (matched) {
        if (!value)
            return -1;
        int scene = params_lookup_name(scene_names, value);
        if (scene < 0) {
            char err[TEXT_MESSAGE_SIZE];
            Params scratch;
            params_default(&scratch, SCENE_CURTAIN);
            params_set(&scratch, "scene", cli_cut(value, CLI_CUT_WORD), err, sizeof err);
            cli_error("--scene %s: %s", cli_cut(value, CLI_CUT_WORD), strchr(err, ' ') + 1);
            return -1;
        }
        settings->scene = scene;
        return 1;
    }
    value = cli_option_value(argc, argv, i, "--set", &matched);
    if (!matched)
        return 0;
    if (!value)
        return -1;
    if (settings->assignment_count >= (int)(sizeof settings->assignments / sizeof settings->assignments[0])) {
        cli_error("--set %s: too many --set options (at most 256)", cli_cut(value, CLI_CUT_WORD));
        return -1;
    }
    if (strlen(value) > 256) { /* no key and value is that long */
        cli_error("--set %s: too long to be KEY=VALUE (%zu characters)", cli_cut(value, CLI_CUT_WORD), strlen(value));
        return -1;
    }
    /* a scene named by --set chooses the defaults the other keys start from */
    if (strncmp(value, "scene=", 6) == 0) {
        int scene = params_lookup_name(scene_names, value + 6);
        if (scene >= 0)
            settings->scene = scene;
    }
    settings->assignments[settings->assignment_count++] = value;
    return 1;
}

int cli_next_argument(CliSettings *settings, int argc, char **argv, int *i)
{
    while (++*i < argc) {
        int taken = cli_take_setting(settings, argc, argv, i);
        if (taken < 0)
            return -1;
        if (!taken)
            return 1;
    }
    return 0;
}

bool cli_build_params(const CliSettings *settings, Params *params)
{
    char err[TEXT_MESSAGE_SIZE];
    params_default(params, (SceneKind)settings->scene);
    for (int k = 0; k < settings->assignment_count; k++) {
        if (!params_assign(params, settings->assignments[k], err, sizeof err)) {
            cli_error("--set %s: %s", cli_cut(settings->assignments[k], CLI_CUT_WORD), err);
            return false;
        }
    }
    if (!scene_validate(params, err, sizeof err)) {
        cli_error("%s", err);
        return false;
    }
    return true;
}

bool cli_parse_long(const char *name, const char *text, long min, long max, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || isspace((unsigned char)text[0])) {
        cli_error("%s %s: not a whole number (%ld to %ld)", name, cli_cut(text, CLI_CUT_WORD), min, max);
        return false;
    }
    if (v < min || v > max) {
        cli_error("%s %s: out of range (%ld to %ld)", name, cli_cut(text, CLI_CUT_WORD), min, max);
        return false;
    }
    *out = v;
    return true;
}

bool cli_parse_double(const char *name, const char *text, double min, double max, double *out)
{
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v) || isspace((unsigned char)text[0]) || strpbrk(text, "xX")) {
        cli_error("%s %s: not a number (%g to %g)", name, cli_cut(text, CLI_CUT_WORD), min, max);
        return false;
    }
    if (v < min || v > max) {
        cli_error("%s %s: out of range (%g to %g)", name, cli_cut(text, CLI_CUT_WORD), min, max);
        return false;
    }
    *out = v;
    return true;
}

/* The options that take a value as the next argument ("--steps 10"):
 * every command's, so that a value is never taken for the command. */
static const char *const value_options[] = {
    "--scene", "--set",   "--compare", "--fps",  "--record",  "--background", "--csv",    "--dump",       "--size",
    "--mode",  "--steps", "--every",   "--reps", "--seconds", "-o",           "--output", "--time-limit", "--preset"};

static bool takes_value(const char *arg)
{
    for (size_t k = 0; k < sizeof value_options / sizeof value_options[0]; k++)
        if (strcmp(arg, value_options[k]) == 0)
            return true;
    return false;
}

bool cli_command_first(int *count, char **argv)
{
    const int argc = *count;
    int command = -1;
    bool after_dashes = false;
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--version") == 0))
        return false; /* clothsim's own, which take nothing after them */
    for (int i = 1; i < argc && command < 0; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            if (i + 1 < argc)
                command = i + 1, after_dashes = true;
            break;
        }
        if (arg[0] != '-' || arg[1] == '\0')
            command = i;
        else if (takes_value(arg))
            i++; /* its value */
    }
    if (command <= 1)
        return false;
    char *name = argv[command];
    int from = after_dashes ? command - 1 : command; /* the "--" goes */
    for (int i = from; i > 1; i--)
        argv[i] = argv[i - 1];
    argv[1] = name;
    if (after_dashes) { /* close the gap the "--" left */
        for (int i = command; i + 1 < argc; i++)
            argv[i] = argv[i + 1];
        argv[argc - 1] = NULL;
        *count = argc - 1;
    }
    return after_dashes;
}
