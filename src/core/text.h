/* text.h - how core marks the words a person reads, without gettext.
 *
 * Core is libc + libm only and never calls gettext. A string a person reads
 * is marked N_("...") (a no-op: xgettext finds it, app/ translates it where
 * it is shown). A message core formats itself (an error into err) passes
 * its format through T_(): the translator app/ installs at start
 * (text_set_translator; none: the text as written, which is what the tests
 * and every caller that never installs one get). */
#ifndef CLOTHSIM_CORE_TEXT_H
#define CLOTHSIM_CORE_TEXT_H

#include <stddef.h>

#define N_(text) text

/* Room for one message a person reads (an error, a notice): a line in
 * English is under 300 bytes, and Cyrillic takes two bytes a letter. */
#define TEXT_MESSAGE_SIZE 1024

/* Gives the text a person reads for msgid: a string that lives as long as
 * the program (gettext's are). */
typedef const char *(*TextTranslator)(const char *msgid);

/* Installs translate for T_ (NULL: the text as written). Call once, before
 * any thread starts. */
void text_set_translator(TextTranslator translate);

/* msgid as the installed translator gives it. The format attribute lets the
 * compiler check printf formats through it. */
const char *text_translate(const char *msgid) __attribute__((format_arg(1)));
#define T_(text) text_translate(text)

/* The decimal separator of numbers a person reads: "." until app/ sets
 * the locale's (i18n_init: "," in Ukrainian). Data (CSV, scripts, --set)
 * never goes through it. point: at most 7 bytes, copied. */
void text_set_decimal_point(const char *point);
const char *text_decimal_point(void);

/* Replaces, in place, each '.' of text that stands between two digits by
 * the decimal separator (text printed in the C locale; text_size bytes in
 * all, never overrun: with no room the rest keeps its '.'). For what a
 * person reads only. */
void text_decimals(char *text, size_t text_size);

/* in for a terminal: each control character (C0 but tab, DEL, C1 U+0080
 * to U+009F, the bidirectional controls U+202A-202E and U+2066-2069) as
 * \xNN or \u202e, and each byte that is not UTF-8 as \xNN, so that text a
 * person gave (a file name, an argument, a lesson's word) quoted in a
 * message can neither move the cursor, set the clipboard nor reverse the
 * line. Into out (out_size bytes, always terminated, never cutting an
 * escape or a character in two). */
void text_escape_controls(const char *in, char *out, size_t out_size);

/* Whether code point cp is one text_escape_controls escapes. */
int text_is_control(unsigned cp);

/* The house's one "did you mean": the name nearest to word among count
 * names (NULL entries skipped), or NULL if none is close enough to be a
 * typo. Near means few edits, an edit being one character put in, left out
 * or changed, or two neighbours swapped ("titel" is one from "title"),
 * letters compared without case ("Damping" is none from "damping"); close
 * enough means at most a third of word's length, at least 1, at most 3
 * edits. Words over 63 bytes are never near. The first nearest wins. */
const char *text_suggest(const char *word, const char *const *names, int count);

#endif
