/* metrics.c - energy, strain, residual and penetration of a solver's state. */
#include "metrics.h"

#include <math.h>
#include <stdio.h>

const char metrics_csv_header[] = "step,time,kinetic,potential,elastic,total,max_strain,mean_strain,residual,"
                                  "penetration,torn,exploded,cg_iterations,cg_residual,cg_unconverged";

/* Elastic energy of one link: as a Hooke spring of the family's constant,
 * or for xpbd from its compliance (alpha = compliance * rest, E = C^2/2alpha). */
static double link_energy(const Solver *s, int l, double extension)
{
    const Cloth *c = s->cloth;
    int family = c->family[l];
    if (s->params.integrator == INTEGRATOR_XPBD) {
        double alpha = (double)solver_family_compliance(s, family) * c->rest_length[l];
        return alpha > 0.0 ? 0.5 * extension * extension / alpha : 0.0;
    }
    return 0.5 * solver_family_spring(s, family) * extension * extension;
}

static void compute(const Solver *s, Metrics *out, bool contact_and_residual)
{
    const Cloth *c = s->cloth;
    double g = s->params.gravity;
    double kinetic = 0.0, potential = 0.0, elastic = 0.0;
    for (int i = 0; i < c->count; i++) {
        double v2 = (double)c->vx[i] * c->vx[i] + (double)c->vy[i] * c->vy[i] + (double)c->vz[i] * c->vz[i];
        kinetic += 0.5 * c->mass[i] * v2;
        potential += (double)c->mass[i] * g * c->y[i];
    }
    double max_strain = 0.0, strain_sum = 0.0;
    int structural = 0, torn = 0;
    bool first = true;
    for (int l = 0; l < c->link_count; l++) {
        if (c->torn[l]) {
            torn++;
            continue;
        }
        double length = cloth_link_length(c, l);
        if (solver_family_stiffness(s, c->family[l]) > 0.0f)
            elastic += link_energy(s, l, length - c->rest_length[l]);
        if (c->family[l] == LINK_STRUCTURAL) {
            double strain = length / c->rest_length[l] - 1.0;
            if (first || strain > max_strain)
                max_strain = strain;
            first = false;
            strain_sum += strain;
            structural++;
        }
    }
    *out = (Metrics){
        .step = s->step,
        .time = s->time,
        .kinetic = kinetic,
        .potential = potential,
        .elastic = elastic,
        .total = kinetic + potential + elastic,
        .max_strain = max_strain,
        .mean_strain = structural ? strain_sum / structural : 0.0,
        .residual = contact_and_residual ? solver_residual(s) : NAN,
        .penetration = contact_and_residual ? metrics_penetration(s) : NAN,
        .torn = torn,
        .exploded = s->exploded,
        .cg_iterations = s->params.integrator == INTEGRATOR_IMPLICIT ? s->cg_iterations : 0,
        .cg_residual = s->params.integrator == INTEGRATOR_IMPLICIT ? s->cg_residual : 0.0,
        .cg_unconverged = s->cg_unconverged,
    };
}

double metrics_residual(const Solver *s) { return solver_residual(s); }

double metrics_penetration(const Solver *s)
{
    Collider collider;
    solver_contact_collider(s, &collider);
    double deepest = 0.0;
    if (collider.shape != SHAPE_NONE)
        deepest = collide_penetration(s->cloth, &collider, METRICS_LINK_SAMPLES);
    if (s->params.floor) {
        double below = collide_floor_penetration(s->cloth, (float)s->params.floor_y);
        deepest = below > deepest ? below : deepest;
    }
    return deepest;
}

int metrics_format_csv(const Metrics *m, char *out, int out_size)
{
    return snprintf(out, (size_t)out_size, "%lld,%.6f,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%d,%d,%.3g,%lld\n",
                    (long long)m->step, m->time, m->kinetic, m->potential, m->elastic, m->total, m->max_strain,
                    m->mean_strain, m->residual, m->penetration, m->torn, m->exploded ? 1 : 0, m->cg_iterations,
                    m->cg_residual, (long long)m->cg_unconverged);
}

void metrics_compute(const Solver *s, Metrics *out) { compute(s, out, true); }

void metrics_compute_live(const Solver *s, Metrics *out) { compute(s, out, false); }
