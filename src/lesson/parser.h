/* parser.h - reads a lesson script into a Lesson (lesson.h), from memory or
 * from a file; parser.c says how. */
#ifndef CLOTHSIM_LESSON_PARSER_H
#define CLOTHSIM_LESSON_PARSER_H

#include <stddef.h>

#include "lesson.h"

/* Parses len bytes of text (any bytes: NULs, invalid UTF-8 and overlong
 * lines are reported, never crash). name is used in messages. Returns the
 * lesson, to be freed with lesson_destroy, or NULL with one line
 * "name:line:col: message" (no newline) in err. Out of memory is reported in
 * err as "name: out of memory". */
Lesson *lesson_parse_buffer(const char *name, const char *text, size_t len, char *err, size_t err_size);

/* Reads and parses a file, as lesson_parse_buffer; a file that cannot be read
 * gives "path: cannot read: reason". */
Lesson *lesson_parse_file(const char *path, char *err, size_t err_size);

#endif
