/* metrics.h - what a run measures: energy, strain, residual, contact, damage.
 *
 * Computed on demand from a solver's state (never inside the step), so a run
 * that writes a row every K steps pays for K-th steps only.
 */
#ifndef CLOTHSIM_METRICS_H
#define CLOTHSIM_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "solver.h"

typedef struct Metrics {
    int64_t step;
    double time;       /* s */
    double kinetic;    /* J */
    double potential;  /* J, gravity, zero at y = 0 */
    double elastic;    /* J, links as springs (xpbd: from its compliance) */
    double total;      /* J */
    double max_strain; /* over intact structural links: length / rest - 1 */
    double mean_strain;
    double residual;    /* mean |length - rest| / rest after the last pass */
    double penetration; /* m, deepest point of a link inside a collider */
    int torn;           /* links torn */
    bool exploded;
    int cg_iterations;      /* implicit: the last substep's conjugate-gradient iterations (else 0) */
    double cg_residual;     /* implicit: and the residual they left, over the right-hand side (else 0) */
    int64_t cg_unconverged; /* implicit: substeps so far whose solve did not converge (implicit.h; else 0) */
} Metrics;

/* The CSV header of `clothsim run --csv`, without newline. */
extern const char metrics_csv_header[];

void metrics_compute(const Solver *solver, Metrics *out);

/* The same without residual and penetration (left NaN), which cost about a
 * relaxation pass each: what the sandbox's plots and status line need,
 * every frame. */
void metrics_compute_live(const Solver *solver, Metrics *out);

/* The mean relative constraint error of the links that take part. */
double metrics_residual(const Solver *solver);

/* Deepest penetration of any intact link into the collider, sampled at
 * METRICS_LINK_SAMPLES points per link whatever the solver does. */
#define METRICS_LINK_SAMPLES 9
double metrics_penetration(const Solver *solver);

/* One CSV row (with newline) into out; returns the length written. */
int metrics_format_csv(const Metrics *metrics, char *out, int out_size);

#endif
