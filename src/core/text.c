/* text.c - the translator hook of text.h: core's messages in the user's
 * language without core knowing of gettext. */
#include "text.h"

#include <stddef.h>
#include <string.h>

static TextTranslator translator;

void text_set_translator(TextTranslator translate) { translator = translate; }

const char *text_translate(const char *msgid) { return translator ? translator(msgid) : msgid; }

static char decimal_point[8] = ".";

void text_set_decimal_point(const char *point)
{
    if (point && point[0] && strlen(point) < sizeof decimal_point)
        memcpy(decimal_point, point, strlen(point) + 1);
}

const char *text_decimal_point(void) { return decimal_point; }

void text_decimals(char *text, size_t text_size)
{
    size_t point_length = strlen(decimal_point);
    if (point_length == 1 && decimal_point[0] == '.')
        return;
    size_t length = strnlen(text, text_size);
    for (size_t i = 1; i + 1 < length; i++) {
        if (text[i] != '.' || text[i - 1] < '0' || text[i - 1] > '9' || text[i + 1] < '0' || text[i + 1] > '9')
            continue;
        if (length + point_length - 1 >= text_size)
            return;
        memmove(text + i + point_length, text + i + 1, length - i);
        memcpy(text + i, decimal_point, point_length);
        length += point_length - 1;
        i += point_length - 1;
    }
}
