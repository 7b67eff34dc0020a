/* metrics.c - energy, strain, residual and penetration of a solver's state. */
#include "metrics.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>

const char metrics_csv_header[] = "step,time,kinetic,potential,elastic,total,max_strain,mean_strain,residual,"
                                  "penetration,torn,exploded,cg_iterations,cg_residual,cg_unconverged";

/* Elastic energy of a link of the given extension (m): as a Hooke spring of
 * its family's constant, or for xpbd from its compliance (alpha = compliance *
 * rest, E = C^2/2alpha). The family's figures come from solver_family_spring
 * and solver_family_compliance, read once a call (compute). */
static double link_energy(bool xpbd, double spring, double compliance, float rest_length, double extension)
{
    if (xpbd) {
        double alpha = compliance * rest_length;
        return alpha > 0.0 ? 0.5 * extension * extension / alpha : 0.0;
    }
    return 0.5 * spring * extension * extension;
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
    /* each family's figures once, not once a link: this runs every frame of
     * the sandbox (its energy and strain plots) */
    bool xpbd = s->params.integrator == INTEGRATOR_XPBD;
    bool stiff[LINK_FAMILY_COUNT];
    double spring[LINK_FAMILY_COUNT], compliance[LINK_FAMILY_COUNT];
    for (int f = 0; f < LINK_FAMILY_COUNT; f++) {
        stiff[f] = solver_family_stiffness(s, f) > 0.0f;
        spring[f] = solver_family_spring(s, f);
        compliance[f] = solver_family_compliance(s, f);
    }
    double max_strain = 0.0, strain_sum = 0.0;
    int structural = 0, torn = 0;
    bool first = true;
    for (int l = 0; l < c->link_count; l++) {
        if (c->torn[l]) {
            torn++;
            continue;
        }
        /* cloth_link_length, inline */
        uint32_t a = c->link_a[l], b = c->link_b[l];
        float dx = c->x[b] - c->x[a], dy = c->y[b] - c->y[a], dz = c->z[b] - c->z[a];
        double length = sqrtf(dx * dx + dy * dy + dz * dz);
        int family = c->family[l];
        assert(family >= 0 && family < LINK_FAMILY_COUNT);
        if (stiff[family])
            elastic +=
                link_energy(xpbd, spring[family], compliance[family], c->rest_length[l], length - c->rest_length[l]);
        if (family == LINK_STRUCTURAL) {
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

double metrics_residual(const Solver *s)
{
    return solver_residual(s);
}

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

void metrics_compute(const Solver *s, Metrics *out)
{
    compute(s, out, true);
}

void metrics_compute_live(const Solver *s, Metrics *out)
{
    compute(s, out, false);
}
