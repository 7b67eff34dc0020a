/* budget.c - what a lesson may cost to play (see budget.h: lesson_check_budget).
 *
 * A lesson is played headless by `clothsim check --run` and in the player;
 * either must finish in reasonable time whatever a script says. So a parsed
 * lesson is walked once through a stage, as the player would, adding up
 * what it asks for: commands, particles open at once, particles built
 * (panes opened, reset or changed), simulated seconds, and the work of the
 * runs: particles x substeps x passes (pass_work), which is what a step
 * costs, where particles x steps alone took a lesson of 100 substeps and
 * 500 passes for a light one. Over any limit, the command that goes over
 * is named with its position. The course uses at most a twentieth of each
 * limit (16-implicit-euler.lesson 6.3e8 particle-passes, 08-collisions.lesson
 * builds 10176 particles). */
#include "budget.h"

#include <stdio.h>

#include "lesson.h"
#include "stage.h"
#include "core/text.h"

static double pane_particles(const Params *p)
{
    return (double)p->cols * (double)p->rows;
}

/* What a step of pane p costs, in particle-passes: each substep relaxes
 * every particle's links `iterations` times (the position-based
 * integrators), solves with up to cg_max_iterations conjugate-gradient
 * iterations (implicit), or goes over the particles once (the springs). */
static double pass_work(const Params *p)
{
    double passes = 1.0;
    if (p->integrator == INTEGRATOR_JAKOBSEN || p->integrator == INTEGRATOR_PBD || p->integrator == INTEGRATOR_XPBD)
        passes = (double)p->iterations;
    else if (p->integrator == INTEGRATOR_IMPLICIT)
        passes = (double)p->cg_max_iterations;
    return pane_particles(p) * (double)p->substeps * passes;
}

/* Whole steps of dt that cover seconds (as the player counts them). */
static double steps_for(double seconds, double dt)
{
    return dt > 0 ? seconds / dt + 1.0 : 0.0;
}

bool lesson_check_budget(const Lesson *lesson, char *err, size_t err_size)
{
    LessonStage stage;
    stage_init(&stage);
    double built = 0.0, seconds = 0.0, work = 0.0;
    for (int k = 0; k < lesson->item_count; k++) {
        const LessonItem *item = &lesson->items[k];
        const char *over = NULL;
        char what[160];
        if (k >= LESSON_BUDGET_COMMANDS) {
            snprintf(what, sizeof what, T_("more than %d commands"), LESSON_BUDGET_COMMANDS);
            over = what;
        }
        unsigned changed = 0;
        int col;
        char ignored[TEXT_MESSAGE_SIZE];
        if (!over && !stage_play(&stage, item, &changed, ignored, sizeof ignored, &col))
            changed = 0; /* the parser has said so already; nothing to count */
        int index = item->pane ? stage_find(&stage, item->pane) : -1;
        double open = 0.0;
        for (int i = 0; i < stage.pane_count; i++)
            open += pane_particles(&stage.params[i]);
        for (int i = 0; i < stage.pane_count; i++)
            if (changed & (1u << i))
                built += pane_particles(&stage.params[i]);
        if (item->kind == LESSON_RESET)
            built += index >= 0 ? pane_particles(&stage.params[index]) : open;
        if (item->kind == LESSON_HOMEWORK && index >= 0) { /* the checker's proof: two runs of a new pane */
            const Params *p = &stage.params[index];
            built += 2.0 * pane_particles(p);
            seconds += 2.0 * item->seconds;
            work += 2.0 * steps_for(item->seconds, p->dt) * pass_work(p);
        }
        for (int i = 0; i < stage.pane_count; i++) {
            const Params *p = &stage.params[i];
            if (item->kind == LESSON_RUN) {
                double steps = item->steps ? (double)item->steps : steps_for(item->seconds, p->dt);
                work += steps * pass_work(p);
                if (i == 0)
                    seconds += item->steps ? (double)item->steps * p->dt : item->seconds;
            } else if (item->kind == LESSON_STEP && (index < 0 || index == i)) {
                work += (double)item->steps * pass_work(p);
            } else if ((item->kind == LESSON_SUBSTEP || item->kind == LESSON_PASS) && (index < 0 || index == i)) {
                work += (double)item->steps * pass_work(p) / (double)p->substeps; /* at most a substep each */
            }
        }
        if (over) {
        } else if (open > LESSON_BUDGET_PARTICLES_OPEN) {
            snprintf(what, sizeof what, T_("%.0f particles in the open panes (at most %d)"), open,
                     LESSON_BUDGET_PARTICLES_OPEN);
            over = what;
        } else if (built > LESSON_BUDGET_PARTICLES_BUILT) {
            snprintf(what, sizeof what, T_("%.0f particles built by panes, resets and settings (at most %.0f)"), built,
                     LESSON_BUDGET_PARTICLES_BUILT);
            over = what;
        } else if (seconds > LESSON_BUDGET_SECONDS) {
            snprintf(what, sizeof what, T_("%.0f simulated seconds of runs (at most %.0f)"), seconds,
                     LESSON_BUDGET_SECONDS);
            over = what;
        } else if (work > LESSON_BUDGET_WORK) {
            snprintf(what, sizeof what,
                     T_("%.3g particle-passes of runs, particles x substeps x passes (at most %.3g, about %.0f "
                        "minutes of a processor)"),
                     work, LESSON_BUDGET_WORK, LESSON_BUDGET_WORK * LESSON_BUDGET_PASS_SECONDS / 60.0);
            over = what;
        }
        if (over) {
            lesson_error(err, err_size, lesson->name, item->line, item->col, "over the lesson's budget: %s", over);
            return false;
        }
    }
    return true;
}
