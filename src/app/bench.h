/* bench.h - `clothsim bench`: what the solver and the renderer cost on this
 * machine (issue 6). Never part of make test. */
#ifndef CLOTHSIM_BENCH_H
#define CLOTHSIM_BENCH_H

/* clothsim bench [--quick] [--json] [--reps N] (argv[0] is "bench").
 * Returns the process exit status. */
int bench_main(int argc, char **argv);

#endif
