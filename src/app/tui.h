/* tui.h - the sandbox and compare mode in a terminal (ncursesw), the top
 * of the terminal files (tui_state.h lists them; `clothsim learn` is
 * tui_lesson.h's).
 */
#ifndef CLOTHSIM_TUI_H
#define CLOTHSIM_TUI_H

/* Runs the sandbox with argv's options (argv[0] is "clothsim"; see
 * `clothsim --help` and src/clothsim.1). Returns the process exit status: 0 after
 * q or end of input, 1 when the terminal cannot be used, 2 (EXIT_USAGE) on a
 * bad option, 128 + the signal after SIGINT, SIGTERM or SIGHUP. Never exits:
 * the terminal is restored before it returns. */
int tui_main(int argc, char **argv);

#endif
