/* solver_internal.h - what the solver's files share and nothing outside
 * core/ sees. The step and its stage list are solver.c's; each stage lives
 * in the file named for it:
 *   forces.c     KINEMATICS, FORCES: the hands, gravity, wind, springs
 *   integrate.c  SOLVE, INTEGRATE, VELOCITY: the integrators' updates
 *   relax.c      RELAX, STRAIN_LIMIT: the links' corrections and passes
 *   collide.c    SELF_COLLIDE, COLLIDE (beside the contact it calls)
 *   checks.c     CHECK, TEAR: the explosion check, tearing, the measures
 *   state.c      the state's size, save and load
 * Each includes this header (and solver.h through it); none includes
 * another's.
 */
#ifndef CLOTHSIM_SOLVER_INTERNAL_H
#define CLOTHSIM_SOLVER_INTERNAL_H

#include "fast_table.h"
#include "solver.h"

/* Every order but shuffled runs the fast path where the program installed
 * one (fast_table.h; src/fast/): the relaxation passes and the wind,
 * integration, sphere contact, velocity and explosion check stages,
 * vectorised and on threads, with the same bits as the plain code, which
 * stays the readable reference (no table, or plain_relax, runs it;
 * tests/fast/test_fast.c). */
static inline bool fast_path(const Solver *s)
{
    return s->fast && s->params.order != ORDER_SHUFFLED && !s->plain_relax;
}

/* The time at substep `substep` of step `step`: the clock's time plus the
 * steps and substeps taken at the present dt and substeps since it was set.
 * A run whose step never changes reads step * dt + substep * h, as it
 * always did; one whose dt changes reads the sum of the steps it took. */
static inline double clock_reading(const Solver *s, int64_t step, int substep)
{
    return s->clock_time + (double)(step - s->clock_step) * s->params.dt +
           (substep - s->clock_substep) * params_substep(&s->params);
}

/* forces.c */
void stage_kinematics(Solver *s, double t_end);
void stage_forces(Solver *s, double t);
/* The turbulence's waves from the seed (build). */
void forces_setup_turbulence(Solver *s);
/* Each link's spring constant and dashpot brought up to the settings
 * (FORCES' springs and implicit's SOLVE read them). */
void forces_refresh_link_constants(Solver *s);

/* integrate.c */
void stage_solve(Solver *s);
void stage_integrate(Solver *s);
void stage_velocity(Solver *s);
/* A grabbed particle keeps the velocity of the hand's last move. */
void integrate_keep_grab_velocity(Solver *s);

/* relax.c */
void stage_relax(Solver *s, bool whole_substep);
void stage_strain_limit(Solver *s);
/* A rope's links in the order its passes visit them (rope_order; build). */
void relax_find_rope_order(Solver *s);
void relax_shuffle_links(Solver *s);

/* collide.c */
void stage_collide(Solver *s, bool with_friction, bool fix_velocity);
void stage_self_collide(Solver *s);

/* checks.c */
void stage_check(Solver *s);
void stage_tear(Solver *s);
/* How far the cloth may spread (m), and a structural link stretch (times
 * its rest length), before it counts as exploded. */
float checks_explode_allowed(Solver *s);
float checks_explode_stretch(const Solver *s);
void checks_freeze_on_last_good(Solver *s);

#endif
