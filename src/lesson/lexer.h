/* lexer.h - splits one line of a lesson script into words.
 *
 * A script is read a line at a time. lexer_check_text vets a line's bytes
 * (UTF-8, no NUL or control characters); lexer_split then cuts it into
 * tokens: words (anything between blanks), "quoted strings" with \" and \\,
 * and the comparison operators < <= > >=, which also end a word. A '#' that
 * starts a token starts a comment to the end of the line.
 */
#ifndef CLOTHSIM_LESSON_LEXER_H
#define CLOTHSIM_LESSON_LEXER_H

#include <stdbool.h>
#include <stddef.h>

#define LEXER_MAX_TOKENS 256

typedef enum LessonTokenKind { TOKEN_WORD, TOKEN_STRING, TOKEN_OP } LessonTokenKind;

typedef struct LessonToken {
    LessonTokenKind kind;
    const char *text; /* into the line; a string's quotes included */
    size_t length;    /* bytes */
    size_t offset;    /* bytes from the start of the line */
    int col;          /* characters from the start of the line, from 1 */
} LessonToken;

/* Column (characters, from 1) of byte offset in a line already checked. */
int lexer_column(const char *line, size_t offset);

/* Checks that a line is text: valid UTF-8 (no overlong forms, surrogates or
 * code points past U+10FFFF), no NUL and no control character but tab.
 * Returns true, or false with the byte offset of the first bad byte and a
 * message (no position) in err. */
bool lexer_check_text(const char *line, size_t length, size_t *bad_offset, char *err, size_t err_size);

/* Cuts line[from..length) into at most LEXER_MAX_TOKENS tokens. Returns the
 * count, or -1 with the bad token's byte offset in *bad_offset and a message
 * in err (an unterminated string, too many words). */
int lexer_split(const char *line, size_t length, size_t from, LessonToken *tokens, size_t *bad_offset, char *err,
                size_t err_size);

/* Whether token is the word w exactly. */
bool lexer_is(const LessonToken *token, const char *w);

/* Copies a token's text into out (a string without its quotes, escapes
 * undone), NUL-terminated and cut at out_size - 1 bytes. */
void lexer_text(const LessonToken *token, char *out, size_t out_size);

#endif
