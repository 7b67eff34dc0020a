/* tui_term.h - the terminal session under the front end (tui_term.c):
 * modes, signals, the counting output stream, the asciicast recording,
 * reading keys and waiting for them, restoring the terminal on every exit.
 * Knows nothing of panes or lessons: the lowest of the terminal files. */
#ifndef CLOTHSIM_TUI_TERM_H
#define CLOTHSIM_TUI_TERM_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "output.h"

typedef struct TuiTerm {
    int tty_fd;               /* the terminal the screen goes to: standard output */
    int other_fd;             /* another input tui_term_wait waits on (a class's socket); <= 0: none */
    int rows, cols;           /* its size, cells */
    SCREEN *screen;           /* ncurses, writing into pipe_fd[1] */
    FILE *curses_out;         /* the write end of the pipe, as the stream newterm takes */
    int pipe_fd[2];           /* ncurses -> forwarder thread -> tty_fd */
    bool forwarding;          /* the forwarder thread runs */
    bool mouse;               /* mouse reporting was switched on */
    bool refused;             /* tui_term_start: the terminal cannot work (no cursor addressing) */
    bool background_known;    /* the terminal said its background colour ... */
    uint32_t background_rgb;  /* ... 0xRRGGBB */
    FILE *record;             /* the asciicast being written, or NULL ... */
    Output *recording;        /* ... the Output it belongs to (checked after each event) */
    double record_start;      /* monotonic s at the recording's start */
    unsigned long long bytes; /* written to the terminal; read after tui_term_stop */
    /* a measuring session (tui_term_start_measured): ncurses writes to a
     * pseudo-terminal of our own, or a pipe where there is none, and a drain
     * thread counts the bytes and drops them; the real terminal is untouched */
    bool measuring;
    int master_fd;   /* the pseudo-terminal's master, or -1: through pipe_fd */
    FILE *curses_in; /* the input stream newterm took */
    bool draining;   /* the drain thread runs */
} TuiTerm;

/* What tui_term_wait saw. */
typedef enum TuiWait { WAIT_TIMEOUT, WAIT_INPUT, WAIT_SIGNAL, WAIT_HANGUP, WAIT_OTHER } TuiWait;

/* Takes the terminal: checks that standard input and output are one, saves
 * and sets its modes, installs the signal handlers, with ask_background
 * asks the terminal its background colour (OSC 11: background_known and
 * background_rgb say the answer), starts ncurses on a
 * counting stream, starts the recording into record, opened by the caller,
 * who closes it after tui_term_stop (output_close; NULL: none). On failure
 * writes one sentence into err, leaves the terminal as it was and returns
 * false. */
bool tui_term_start(TuiTerm *term, Output *record, bool ask_background, char *err, size_t err_size);

/* With --record: an asciicast v2 marker event ("m") labelled label, now (a
 * player's chapter list jumps to it). Does nothing without a recording. */
void tui_term_mark(TuiTerm *term, const char *label);

/* A reply to the background query that came after the start stopped waiting
 * for it: its colour, once. */
bool tui_term_late_background(uint32_t *rgb);

/* Gives the terminal back as it was: mouse off, ncurses ended, every byte
 * forwarded, modes and signal handlers restored, recording ended (its
 * stream is left to its Output). */
void tui_term_stop(TuiTerm *term);

/* A session for measuring, not for a person: ncurses, as the sandbox sets it
 * up, on a pseudo-terminal of cols x rows that this opens itself (a pipe if
 * there is none: *through_pipe says so), for terminal type term_name. The
 * process's own terminal, modes and standard streams are not touched; SIGINT,
 * SIGTERM, SIGHUP and SIGTSTP keep their default effect. On failure writes
 * one sentence into err and returns false. tui_term_stop ends it. */
bool tui_term_start_measured(TuiTerm *term, const char *term_name, int cols, int rows, bool *through_pipe, char *err,
                             size_t err_size);

/* A measuring session: waits until every byte written so far has been
 * counted, and puts the count in *bytes. False if the drain stopped or took
 * longer than seconds. */
bool tui_term_sync(TuiTerm *term, double seconds, unsigned long long *bytes);

/* The next key waiting, read as a wide character (a non-ASCII key is one
 * character, not bytes with their top bit stripped): a curses key code
 * (KEY_UP, KEY_MOUSE ...), an ASCII character, TUI_KEY_OTHER for any other
 * character or key (none is bound), or ERR when none is waiting. */
int tui_read_key(void);
#define TUI_KEY_OTHER (KEY_MAX + 1)

/* Keys by their place: the key of the US layout that a Ukrainian or
 * Russian layout's letter sits on (й is q, ф is a, Й is Q, х is [), so
 * that on a Cyrillic layout every key does what the help says; any other
 * character: TUI_KEY_OTHER. tui_read_key gives keys so. */
int tui_key_by_place(unsigned letter);

/* Waits up to timeout_ms (-1: for ever) for a key, a signal or a hang-up,
 * or input on term->other_fd (WAIT_OTHER). */
TuiWait tui_term_wait(TuiTerm *term, int timeout_ms);

/* The SIGINT, SIGTERM or SIGHUP that asked us to quit, or 0. */
int tui_term_quit_signal(void);

/* If the window changed size since the last call, tells ncurses the new size
 * (term->rows, term->cols) and returns true. */
bool tui_term_take_resize(TuiTerm *term);

/* Switches mouse reporting on, with motion while a button is held. */
void tui_term_mouse_on(TuiTerm *term);

/* Monotonic clock, s. */
double tui_now(void);

#endif
