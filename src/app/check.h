/* check.h - `clothsim check [--run] FILE...`: validates lesson scripts and,
 * with --run, plays them headless and verifies every expect.
 *
 * Exit status: 0 every file is good; 2 a mistake in a file or on the command
 * line (nothing is run then); 1 an expect failed, or out of memory. */
#ifndef CLOTHSIM_CHECK_H
#define CLOTHSIM_CHECK_H

int check_main(int argc, char **argv); /* argv[0] is "check" */

#endif
