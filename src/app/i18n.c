/* i18n.c - the locale, the gettext domain and its catalogues, and the one
 * helper that writes a number a person reads with the locale's decimal
 * separator (i18n.h says why data keeps '.'). */
#include "i18n.h"

#include <limits.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CLOTHSIM_LOCALEDIR
#define CLOTHSIM_LOCALEDIR "/usr/local/share/locale"
#endif

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The build tree's catalogues before the installed ones: a binary in a
 * build folder (build/san/clothsim) has them in locale/ beside it; the one
 * at the top of a checkout in build/locale/. /usr/bin/locale is a program,
 * not a folder: an installed binary falls through to CLOTHSIM_LOCALEDIR. */
static const char *catalogue_folder(char *out, size_t out_size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return CLOTHSIM_LOCALEDIR;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return CLOTHSIM_LOCALEDIR;
    *slash = '\0';
    static const char *const below[] = {"/locale", "/build/locale"};
    for (size_t k = 0; k < sizeof below / sizeof below[0]; k++) {
        int written = snprintf(out, out_size, "%s%s", exe, below[k]);
        if (written > 0 && (size_t)written < out_size && is_directory(out))
            return out;
    }
    return CLOTHSIM_LOCALEDIR;
}

static const char *translate(const char *msgid)
{
    return gettext(msgid);
}

/* Each value a translated screen shows in its language, by key. A name
 * listed once serves every key whose values share it ("off", "none"). */
static const struct {
    const char *keys; /* the settings whose value it is, blank-separated */
    const char *name;
} value_names[] = {
    {"scene", N_("curtain")},
    {"scene", N_("flag")},
    {"scene", N_("chain")},
    {"scene", N_("net")},
    {"scene", N_("drape")},
    {"scene", N_("tear")},
    {"scene", N_("heap")},
    {"collider pin", N_("none")},
    {"collider", N_("sphere")},
    {"collider", N_("box")},
    {"collider", N_("cone")},
    {"material", N_("silk")},
    {"material", N_("cotton")},
    {"material", N_("canvas")},
    {"material", N_("rubber")},
    {"tear floor self_collision", N_("off")},
    {"floor self_collision", N_("on")},
    {"tear", N_("naive")},
    {"tear", N_("hysteresis")},
    {"pin", N_("top")},
    {"pin", N_("corners")},
    {"pin", N_("left")},
    {"pin", N_("ends")},
    {"pin", N_("sides")},
    {"pin", N_("centre")},
    {"mode", N_("shaded")},
    {"mode", N_("wire")},
    {"mode", N_("strain")},
    {"mode", N_("points")},
};

static bool key_listed(const char *keys, const char *key)
{
    size_t length = strlen(key);
    for (const char *at = strstr(keys, key); at; at = strstr(at + 1, key))
        if ((at == keys || at[-1] == ' ') && (at[length] == ' ' || at[length] == '\0'))
            return true;
    return false;
}

const char *i18n_value_name(const char *key, const char *name)
{
    for (size_t k = 0; k < sizeof value_names / sizeof value_names[0]; k++)
        if (strcmp(value_names[k].name, name) == 0 && key_listed(value_names[k].keys, key))
            return _(value_names[k].name);
    return name;
}

void i18n_init(void)
{
    setlocale(LC_ALL, "");
    text_set_decimal_point(localeconv()->decimal_point);
    setlocale(LC_NUMERIC, "C");
    char folder[PATH_MAX + 16];
    bindtextdomain(I18N_DOMAIN, catalogue_folder(folder, sizeof folder));
    textdomain(I18N_DOMAIN);
    text_set_translator(translate);
}

const char *i18n_decimal_point(void)
{
    return text_decimal_point();
}

void i18n_decimals(char *text, size_t text_size)
{
    text_decimals(text, text_size);
}

char *i18n_number(char *out, size_t out_size, const char *format, double value)
{
    if (out_size == 0)
        return out;
    snprintf(out, out_size, format, value);
    i18n_decimals(out, out_size);
    return out;
}
