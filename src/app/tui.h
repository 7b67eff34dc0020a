/* tui.h - the interactive front end: the sandbox and compare mode in a
 * terminal (ncursesw). Every curses call of the program lives in src/app/tui*.c.
 */
#ifndef CLOTHSIM_TUI_H
#define CLOTHSIM_TUI_H

/* Runs the sandbox with argv's options (argv[0] is "clothsim"; see
 * `clothsim --help` and src/clothsim.1). Returns the process exit status: 0 after
 * q or end of input, 1 when the terminal cannot be used, 2 (EXIT_USAGE) on a
 * bad option, 128 + the signal after SIGINT, SIGTERM or SIGHUP. Never exits:
 * the terminal is restored before it returns. */
int tui_main(int argc, char **argv);

/* `clothsim learn` (argv[1] "learn": the menu of lessons) or `clothsim
 * FILE.lesson` (argv[1] the lesson: plays it). A lesson that does not parse
 * prints its file:line:col line on stderr and returns 2 before the terminal is
 * touched. Returns as tui_main does. Never exits. */
int tui_learn_main(int argc, char **argv);

#endif
