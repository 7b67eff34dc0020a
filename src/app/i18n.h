/* i18n.h - the interface in the user's language (gettext, from glibc) and
 * numbers written as that language writes them.
 *
 * The language is chosen as every GNU program chooses it: LANGUAGE, LC_ALL,
 * LC_MESSAGES, LANG. The catalogues (clothsim.mo) are found next to the
 * binary when it runs from a checkout or a build folder (build/locale/...),
 * otherwise where make install put them ($(PREFIX)/share/locale).
 *
 * Data never changes with the locale: LC_NUMERIC stays "C", so strtod and
 * printf read and write '.' in lesson scripts, --set values, CSV and JSON.
 * A number a person reads goes through i18n_number, which puts the locale's
 * decimal separator in (Ukrainian: 0,08 с). */
#ifndef CLOTHSIM_APP_I18N_H
#define CLOTHSIM_APP_I18N_H

#include <libintl.h>
#include <stddef.h>

#include "core/text.h"

#define _(text) gettext(text)

/* The gettext domain and the name of the catalogue files. */
#define I18N_DOMAIN "clothsim"

/* Sets the locale from the environment, keeps LC_NUMERIC at "C" (after
 * noting its decimal separator), binds the domain to the catalogues and
 * installs gettext as core's translator and the separator as core's
 * (core/text.h). Call first in main, before any thread starts; again only
 * to change the locale (the tests do). */
void i18n_init(void);

/* The locale's decimal separator as i18n_init found it: "." or "," ... */
const char *i18n_decimal_point(void);

/* value printed with format (one floating conversion: "%.2f", "%g" ...), in
 * the C locale, with its '.' replaced by the locale's decimal separator.
 * Returns out, always terminated. No allocation: fit for the draw loop. */
char *i18n_number(char *out, size_t out_size, const char *format, double value);

/* Replaces, in place, each '.' of text that stands between two digits by the
 * locale's decimal separator (text already printed in the C locale;
 * text_size bytes in all). For lines a person reads that print several
 * numbers at once; never for data. */
void i18n_decimals(char *text, size_t text_size);

/* The name a person reads for the value `name` of the setting `key` (a
 * scene, collider, material, tearing mode, pinning, a switch's on and off)
 * or, for key "mode", of a render mode: its translation on a translated
 * screen, `name` itself otherwise and for every other key (integrators and
 * orders keep the names the lessons teach). For display only: scripts,
 * --set and CSV keep the English names. No allocation. */
const char *i18n_value_name(const char *key, const char *name);

#endif
