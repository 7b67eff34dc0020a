/* headless.h - subcommands that run without a terminal. Each returns the
 * process exit status; only main() exits. */
#ifndef CLOTHSIM_HEADLESS_H
#define CLOTHSIM_HEADLESS_H

int headless_run(int argc, char **argv);    /* clothsim run ... (argv[0] is "run") */
int headless_params(int argc, char **argv); /* clothsim params [--scene NAME] */
int headless_scenes(void);                  /* clothsim scenes */

#endif
