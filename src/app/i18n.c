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

static const char *translate(const char *msgid) { return gettext(msgid); }

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

const char *i18n_decimal_point(void) { return text_decimal_point(); }

void i18n_decimals(char *text, size_t text_size) { text_decimals(text, text_size); }

char *i18n_number(char *out, size_t out_size, const char *format, double value)
{
    if (out_size == 0)
        return out;
    snprintf(out, out_size, format, value);
    i18n_decimals(out, out_size);
    return out;
}
