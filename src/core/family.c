/* family.c - what the settings make of a family of links (structural,
 * shear, bend): its stiffness, its spring constant and its compliance, and
 * whether an integrator is position-based. The stages (forces.c, relax.c)
 * and the step (solver.c) all ask; a file of its own so that none of them
 * calls back into another for it. Declared in solver.h. */
#include "solver.h"

bool solver_is_position_based(int integrator)
{
    return integrator == INTEGRATOR_JAKOBSEN || integrator == INTEGRATOR_PBD || integrator == INTEGRATOR_XPBD;
}

float solver_family_stiffness(const Solver *solver, int family)
{
    const Params *p = &solver->params;
    double k = family == LINK_STRUCTURAL ? p->stiffness : family == LINK_SHEAR ? p->shear_stiffness : p->bend_stiffness;
    return (float)k;
}

float solver_family_spring(const Solver *solver, int family)
{
    return (float)(solver_family_stiffness(solver, family) * solver->params.spring_k);
}

float solver_family_compliance(const Solver *solver, int family)
{
    const Params *p = &solver->params;
    double c = family == LINK_STRUCTURAL ? p->compliance
               : family == LINK_SHEAR    ? p->shear_compliance
                                         : p->bend_compliance;
    return (float)c;
}
