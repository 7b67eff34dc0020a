/* config.h - the lasting display choices a person keeps in a file, so that
 * a teacher need not type them at every start: which background the
 * terminal has, frames a second, ASCII only, high contrast.
 *
 * The file is $XDG_CONFIG_HOME/clothsim/config (default
 * ~/.config/clothsim/config), a setting a line, # to the end of a line a
 * comment:
 *
 *   background = light          dark | light | auto
 *   fps = 20                    1 to 240
 *   ascii = yes                 yes | no
 *   high-contrast = yes         yes | no
 *
 * The sandbox, the lesson menu and a lesson read it at start; an option on
 * the command line wins over it. A file that is not there is no mistake; a
 * mistake in it is one line "FILE:LINE:COL: message" and exit status 2, as
 * on the command line. No curses here.
 */
#ifndef CLOTHSIM_CONFIG_H
#define CLOTHSIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "colours.h"

typedef struct DisplayConfig {
    bool has_background, has_fps, has_ascii, has_high_contrast; /* set in the file */
    Background background;
    int fps;
    bool ascii, high_contrast;
} DisplayConfig;

/* The file's path into out; false where there is no home to find it in. */
bool config_path(char *out, size_t out_size);

/* Reads the file at path into config (all unset first; a file that is not
 * there leaves them so). False with one line in err: where, and what. */
bool config_read(const char *path, DisplayConfig *config, char *err, size_t err_size);

struct Tui;

/* The person's file, read and put into tui (before the command line's
 * options; not for --help). False after saying why on stderr. */
bool config_apply(struct Tui *tui, int argc, char **argv);

#endif
