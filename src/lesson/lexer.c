/* lexer.c - splits one line of a lesson script into words (see lexer.h). */
#include "lexer.h"
#include "core/text.h"

#include <stdio.h>
#include <string.h>

int lexer_column(const char *line, size_t offset)
{
    int col = 1;
    for (size_t i = 0; i < offset; i++)
        if (((unsigned char)line[i] & 0xC0) != 0x80) /* not a continuation byte */
            col++;
    return col;
}

bool lexer_check_text(const char *line, size_t length, size_t *bad_offset, char *err, size_t err_size)
{
    const unsigned char *s = (const unsigned char *)line;
    size_t i = 0;
    while (i < length) {
        unsigned c = s[i];
        if (c < 0x80) {
            if (c == 0) {
                *bad_offset = i;
                snprintf(err, err_size, T_("a NUL byte in the text"));
                return false;
            }
            if ((c < 0x20 && c != '\t') || c == 0x7F) {
                *bad_offset = i;
                snprintf(err, err_size, T_("control character 0x%02x in the text"), c);
                return false;
            }
            i++;
            continue;
        }
        int extra;
        unsigned min, cp;
        if (c >= 0xC2 && c <= 0xDF) {
            extra = 1, min = 0x80, cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2, min = 0x800, cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3, min = 0x10000, cp = c & 0x07;
        } else {
            *bad_offset = i;
            snprintf(err, err_size, T_("invalid UTF-8 (byte 0x%02x)"), c);
            return false;
        }
        for (int k = 1; k <= extra; k++) {
            if (i + (size_t)k >= length || (s[i + k] & 0xC0) != 0x80) {
                *bad_offset = i;
                snprintf(err, err_size, T_("invalid UTF-8 (byte 0x%02x)"), c);
                return false;
            }
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            *bad_offset = i;
            snprintf(err, err_size, T_("invalid UTF-8 (byte 0x%02x)"), c);
            return false;
        }
        if (text_is_control(cp)) { /* C1 (a terminal's CSI, OSC ...) or a bidirectional override */
            *bad_offset = i;
            if (cp <= 0x9F)
                snprintf(err, err_size, T_("control character U+%04X in the text"), cp);
            else
                snprintf(err, err_size, T_("bidirectional control U+%04X in the text (it reorders what is shown)"), cp);
            return false;
        }
        i += (size_t)extra + 1;
    }
    return true;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

int lexer_split(const char *line, size_t length, size_t from, LessonToken *tokens, size_t *bad_offset, char *err,
                size_t err_size)
{
    int count = 0;
    size_t i = from;
    for (;;) {
        while (i < length && is_blank(line[i]))
            i++;
        if (i >= length || line[i] == '#')
            return count;
        if (count == LEXER_MAX_TOKENS) {
            *bad_offset = i;
            snprintf(err, err_size, T_("too many words on one line (at most %d)"), LEXER_MAX_TOKENS);
            return -1;
        }
        LessonToken *t = &tokens[count++];
        t->offset = i;
        t->text = line + i;
        t->col = lexer_column(line, i);
        size_t start = i;
        if (line[i] == '"') {
            t->kind = TOKEN_STRING;
            i++;
            while (i < length && line[i] != '"') {
                if (line[i] == '\\' && i + 1 < length)
                    i++;
                i++;
            }
            if (i >= length) {
                *bad_offset = start;
                snprintf(err, err_size, T_("unterminated string"));
                return -1;
            }
            i++; /* the closing quote */
        } else if (line[i] == '<' || line[i] == '>') {
            t->kind = TOKEN_OP;
            i++;
            if (i < length && line[i] == '=')
                i++;
        } else {
            t->kind = TOKEN_WORD;
            while (i < length && !is_blank(line[i]) && line[i] != '"' && line[i] != '<' && line[i] != '>')
                i++;
        }
        t->length = i - start;
    }
}

bool lexer_is(const LessonToken *token, const char *w)
{
    return token->kind == TOKEN_WORD && strlen(w) == token->length && memcmp(token->text, w, token->length) == 0;
}

void lexer_text(const LessonToken *token, char *out, size_t out_size)
{
    if (out_size == 0)
        return;
    size_t n = 0;
    if (token->kind != TOKEN_STRING) {
        n = token->length < out_size - 1 ? token->length : out_size - 1;
        memcpy(out, token->text, n);
    } else {
        for (size_t i = 1; i + 1 < token->length && n < out_size - 1; i++) {
            if (token->text[i] == '\\' && i + 2 < token->length)
                i++;
            out[n++] = token->text[i];
        }
    }
    /* never end on half a character */
    if (n == out_size - 1) {
        size_t start = n;
        while (start > 0 && ((unsigned char)out[start - 1] & 0xC0) == 0x80)
            start--;
        if (start > 0 && (unsigned char)out[start - 1] >= 0xC0) {
            unsigned lead = (unsigned char)out[start - 1];
            size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
            if (n - (start - 1) < need)
                n = start - 1;
        }
    }
    out[n] = '\0';
}
