/* bench_node.h - seed 000's workload in JavaScript, timed in node
 * (bench_node.c tells what the script does and why). */
#ifndef CLOTHSIM_BENCH_NODE_H
#define CLOTHSIM_BENCH_NODE_H

#include <stdbool.h>

typedef struct BenchNodeFigure {
    double median, min, max; /* ns a link a pass over the repetitions */
    int links;
    char why[320]; /* when there is no figure: why, in one line, in the user's language */
} BenchNodeFigure;

/* Runs the script in node for `reps` repetitions of about rep_seconds
 * each. False, with out->why, when node is missing or gave no figure. */
bool bench_node_seed(int reps, double rep_seconds, BenchNodeFigure *out);

#endif
