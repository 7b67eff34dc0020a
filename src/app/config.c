/* config.c - the lasting display choices (see config.h). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "i18n.h"
#include "tui_state.h"
#include "tui_text.h"

bool config_path(char *out, size_t out_size)
{
    const char *config = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    int n;
    if (config && config[0] == '/')
        n = snprintf(out, out_size, "%s/clothsim/config", config);
    else if (home && home[0])
        n = snprintf(out, out_size, "%s/.config/clothsim/config", home);
    else
        return false;
    return n > 0 && (size_t)n < out_size;
}

static bool yes_or_no(const char *value, bool *out)
{
    if (strcmp(value, "yes") == 0 || strcmp(value, "true") == 0 || strcmp(value, "on") == 0)
        return *out = true, true;
    if (strcmp(value, "no") == 0 || strcmp(value, "false") == 0 || strcmp(value, "off") == 0)
        return *out = false, true;
    return false;
}

/* One "key = value" line (comment and blanks around taken off) into config;
 * false with the message and the column of the culprit. */
static bool take(char *line, DisplayConfig *config, char *what, size_t what_size, size_t *column)
{
    char *equals = strchr(line, '=');
    if (!equals) {
        snprintf(what, what_size, _("'%s' is not KEY = VALUE"), cli_cut(line, CLI_CUT_WORD));
        return false;
    }
    char *key_end = equals;
    while (key_end > line && isspace((unsigned char)key_end[-1]))
        key_end--;
    *key_end = '\0';
    char *value = equals + 1;
    while (isspace((unsigned char)*value))
        value++;
    if (strcmp(line, "background") == 0) {
        static const char *const names[] = {"auto", "dark", "light"};
        for (int k = 0; k < 3; k++)
            if (strcmp(value, names[k]) == 0) {
                config->has_background = true;
                config->background = (Background)k;
                return true;
            }
        *column = (size_t)(value - line);
        snprintf(what, what_size, _("background: '%s' is not one of dark, light, auto"), cli_cut(value, CLI_CUT_WORD));
        return false;
    }
    if (strcmp(line, "fps") == 0) {
        char *end;
        errno = 0;
        long fps = strtol(value, &end, 10);
        if (end == value || *end || errno || fps < 1 || fps > 240) {
            *column = (size_t)(value - line);
            snprintf(what, what_size, _("fps: '%s' is not a whole number from 1 to 240"), cli_cut(value, CLI_CUT_WORD));
            return false;
        }
        config->has_fps = true;
        config->fps = (int)fps;
        return true;
    }
    bool *flag = strcmp(line, "ascii") == 0           ? &config->ascii
                 : strcmp(line, "high-contrast") == 0 ? &config->high_contrast
                                                      : NULL;
    if (!flag) {
        snprintf(what, what_size, _("unknown setting '%s' (background, fps, ascii, high-contrast)"),
                 cli_cut(line, CLI_CUT_WORD));
        return false;
    }
    if (!yes_or_no(value, flag)) {
        *column = (size_t)(value - line);
        snprintf(what, what_size, _("%s: '%s' is not yes or no"), line, cli_cut(value, CLI_CUT_WORD));
        return false;
    }
    if (flag == &config->ascii)
        config->has_ascii = true;
    else
        config->has_high_contrast = true;
    return true;
}

bool config_read(const char *path, DisplayConfig *config, char *err, size_t err_size)
{
    *config = (DisplayConfig){0};
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT || errno == ENOTDIR)
            return true;
        snprintf(err, err_size, _("%s: cannot read: %s"), cli_cut(path, CLI_CUT_PATH), strerror(errno));
        return false;
    }
    char line[512];
    bool ok = true;
    for (int number = 1; ok && fgets(line, sizeof line, f); number++) {
        size_t length = strcspn(line, "\n");
        if (line[length] != '\n' && !feof(f)) {
            snprintf(err, err_size, _("%s:%d:1: a line longer than %d bytes"), cli_cut(path, CLI_CUT_PATH), number,
                     (int)sizeof line - 2);
            ok = false;
            break;
        }
        line[length] = '\0';
        line[strcspn(line, "#")] = '\0';
        size_t start = strspn(line, " \t"), end = strlen(line);
        while (end > start && isspace((unsigned char)line[end - 1]))
            end--;
        line[end] = '\0';
        if (start == end)
            continue;
        char what[300];
        size_t column = 0;
        if (!take(line + start, config, what, sizeof what, &column)) {
            snprintf(err, err_size, "%s:%d:%zu: %s", cli_cut(path, CLI_CUT_PATH), number, start + column + 1, what);
            ok = false;
        }
    }
    fclose(f);
    return ok;
}

bool config_apply(struct Tui *tui, int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true; /* the help, whatever the file says */
    char path[1024], err[TEXT_MESSAGE_SIZE];
    DisplayConfig config;
    if (!config_path(path, sizeof path))
        return true;
    if (!config_read(path, &config, err, sizeof err)) {
        cli_say(err);
        return false;
    }
    if (config.has_background)
        tui->background_asked = config.background;
    if (config.has_fps)
        tui->fps = config.fps;
    if (config.has_ascii)
        tui->ascii_only = config.ascii;
    if (config.has_high_contrast)
        tui->render.high_contrast = config.high_contrast;
    return true;
}
