/* support.h - helpers shared by the test files. */
#ifndef CLOTHSIM_TEST_SUPPORT_H
#define CLOTHSIM_TEST_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/cloth.h"
#include "core/params.h"
#include "core/solver.h"

/* A solver for scene with the given "key=value" settings (NULL-terminated);
 * fails the test on a bad setting. */
Solver *support_solver(SceneKind scene, const char *const *settings);

/* A cloth of cols x rows free particles of 1 kg, all at the origin, at rest;
 * fails the test if there is no memory. */
Cloth *support_free_cloth(int cols, int rows);

/* Puts particle i at (x, y, z), at rest: its previous position too. */
void support_place(Cloth *c, int i, float x, float y, float z);

/* A run's length in steps: `full` under make check-long
 * (CLOTHSIM_TEST_LONG=1), `quick` in make test. The same assertions either
 * way; the long suite compares the bits over more steps. */
int support_steps(int quick, int full);

/* Whether this is make check-long (CLOTHSIM_TEST_LONG=1): a test that
 * covers many cases runs a spread of them in make test, each shape, method
 * and kernel level at least once, and all of them here. */
bool support_long(void);

/* Steps the solver for the given simulated seconds (whole steps). */
void support_run_seconds(Solver *solver, double seconds);

/* Whether two solvers' particles hold the same bits: positions,
 * remainders, previous positions and velocities, and both exploded or
 * not, at the same step. */
bool support_same_particles(const Solver *first, const Solver *second);

/* Grabs the particle at (15, 12), moves the hand 2 cm along x and takes a
 * step; fails the test unless the particle followed. Returns its index. */
int support_grab_and_pull(Solver *solver);

/* Largest structural strain, and the mean x of all particles. */
double support_max_strain(const Solver *solver);
double support_mean_x(const Solver *solver);

/* Runs the clothsim binary with argv (NULL-terminated, argv[0] ignored),
 * feeding nothing on stdin; captures up to cap-1 bytes of each stream.
 * Returns the exit status, or -1 if it did not exit normally. */
int support_exec(const char *const *argv, char *out, size_t out_cap, char *err, size_t err_cap);

#endif
