/* text.c - the translator hook of text.h: core's messages in the user's
 * language without core knowing of gettext. */
#include "text.h"

#include <stddef.h>

static TextTranslator translator;

void text_set_translator(TextTranslator translate) { translator = translate; }

const char *text_translate(const char *msgid) { return translator ? translator(msgid) : msgid; }
