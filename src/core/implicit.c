/* implicit.c - backward Euler's linear solve (implicit.h).
 *
 * The matrix is never built whole. A = M - h D - h^2 K couples two
 * particles only through a link between them, so each link keeps one
 * symmetric 3 x 3 block B = h c n n^T + h^2 J (its dashpot's and spring's
 * parts, n the unit vector along it, c the dashpot's coefficient, J its
 * stiffness block) and A u is
 *
 *   (A u)_i = m_i u_i - sum over links (a, b) with a = i of B (u_b - u_a)
 *                     + sum over links (a, b) with b = i of B (u_b - u_a),
 *
 * one pass over the links. The preconditioner is A's diagonal (Jacobi).
 *
 * Why the block leaves out the compressed links' sideways part: a
 * compressed spring's exact J has k (1 - rest / |d|) < 0 across the link
 * (pushed sideways, a compressed link would rather buckle), which makes A
 * indefinite where a cloth folds, and conjugate gradients may then divide
 * by zero or wander. Dropping that term (Choi and Ko 2002 do the same)
 * keeps A positive definite; the force itself is still the exact one, so
 * the solve is only a little less implicit where the cloth is slack.
 * The dashpot's Jacobian leaves out the part from n turning with the
 * positions, as Baraff and Witkin do: it is small and not symmetric.
 *
 * Sums go in a fixed order on one thread: the same bits on every run.
 */
#include "implicit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct Implicit {
    int count, link_count;
    double *block; /* six entries a link: xx, xy, xz, yy, yz, zz */
    double *dv[3], *r[3], *p[3], *ap[3], *z[3], *diag[3];
    double *storage;
};

Implicit *implicit_create(int count, int link_count)
{
    Implicit *im = calloc(1, sizeof *im);
    if (!im)
        return NULL;
    im->count = count, im->link_count = link_count;
    size_t n = (size_t)(count > 0 ? count : 1);
    im->block = calloc((size_t)(link_count > 0 ? link_count : 1) * 6, sizeof(double));
    im->storage = calloc(n * 18, sizeof(double));
    if (!im->block || !im->storage) {
        implicit_destroy(im);
        return NULL;
    }
    double **vectors[] = {im->dv, im->r, im->p, im->ap, im->z, im->diag};
    for (int v = 0; v < 6; v++)
        for (int k = 0; k < 3; k++)
            vectors[v][k] = im->storage + ((size_t)v * 3 + (size_t)k) * n;
    return im;
}

void implicit_destroy(Implicit *im)
{
    if (!im)
        return;
    free(im->block);
    free(im->storage);
    free(im);
}

double *implicit_dv(Implicit *im, int coordinate) { return im->dv[coordinate]; }

void implicit_forget(Implicit *im)
{
    for (int k = 0; k < 3; k++)
        memset(im->dv[k], 0, (size_t)im->count * sizeof(double));
}

void implicit_spring_block(const double d[3], double rest, double k, bool definite, double J[6])
{
    double length = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double n[3] = {d[0] / length, d[1] / length, d[2] / length};
    double across = 1.0 - rest / length; /* k (|d| - rest) / |d|: the tension per metre of length, over k */
    if (definite && across < 0.0)
        across = 0.0;
    const int row[6] = {0, 0, 0, 1, 1, 2}, col[6] = {0, 1, 2, 1, 2, 2};
    for (int e = 0; e < 6; e++) {
        double nn = n[row[e]] * n[col[e]];
        J[e] = k * (nn + across * ((row[e] == col[e] ? 1.0 : 0.0) - nn));
    }
}

/* out = B u for a symmetric block B (six entries). */
static inline void block_times(const double *B, const double u[3], double out[3])
{
    out[0] = B[0] * u[0] + B[1] * u[1] + B[2] * u[2];
    out[1] = B[1] * u[0] + B[3] * u[1] + B[4] * u[2];
    out[2] = B[2] * u[0] + B[4] * u[1] + B[5] * u[2];
}

/* out = A u, with the rows of particles that cannot move set to 0 (the
 * filter: their dv stays 0, and nothing in the solve pushes on them). */
static void apply(const Implicit *im, const Cloth *c, const ImplicitLinks *links, double *const u[3],
                  double *const out[3])
{
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < c->count; i++)
            out[k][i] = (double)c->mass[i] * u[k][i];
    for (int l = 0; l < c->link_count; l++) {
        if (!links->pulls[l])
            continue;
        uint32_t a = c->link_a[l], b = c->link_b[l];
        double du[3] = {u[0][b] - u[0][a], u[1][b] - u[1][a], u[2][b] - u[2][a]}, t[3];
        block_times(im->block + 6 * (size_t)l, du, t);
        for (int k = 0; k < 3; k++)
            out[k][a] -= t[k], out[k][b] += t[k];
    }
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < c->count; i++)
            if (c->inv_mass[i] == 0.0f)
                out[k][i] = 0.0;
}

static double dot(const Implicit *im, double *const a[3], double *const b[3])
{
    double sum = 0.0;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < im->count; i++)
            sum += a[k][i] * b[k][i];
    return sum;
}

/* Each link's block B = h c n n^T + h^2 J, and A's diagonal. */
static void build_blocks(Implicit *im, const Cloth *c, const ImplicitLinks *links, double h)
{
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < c->count; i++)
            im->diag[k][i] = c->mass[i];
    for (int l = 0; l < c->link_count; l++) {
        if (!links->pulls[l])
            continue;
        uint32_t a = c->link_a[l], b = c->link_b[l];
        double d[3] = {(double)c->x[b] - c->x[a], (double)c->y[b] - c->y[a], (double)c->z[b] - c->z[a]};
        double *B = im->block + 6 * (size_t)l;
        implicit_spring_block(d, c->rest_length[l], links->k[l], true, B);
        double length = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double n[3] = {d[0] / length, d[1] / length, d[2] / length};
        double damp = h * links->dashpot[l];
        const int row[6] = {0, 0, 0, 1, 1, 2}, col[6] = {0, 1, 2, 1, 2, 2};
        for (int e = 0; e < 6; e++)
            B[e] = h * h * B[e] + damp * n[row[e]] * n[col[e]];
        /* the link adds B to both ends' diagonal blocks */
        double diagonal[3] = {B[0], B[3], B[5]};
        for (int k = 0; k < 3; k++)
            im->diag[k][a] += diagonal[k], im->diag[k][b] += diagonal[k];
    }
}

ImplicitResult implicit_solve(Implicit *im, const Cloth *c, const float *const f[3], const ImplicitLinks *links,
                              double h, double tolerance, int max_iterations)
{
    ImplicitResult result = {0, 0.0};
    build_blocks(im, c, links, h);
    const float *v[3] = {c->vx, c->vy, c->vz};
    /* b = h f0 + h^2 K v0: r holds b for now, p K v0 (with its sign: the
     * blocks hold -K's coupling, so K v0 at a is J (v_b - v_a)) */
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < c->count; i++)
            im->r[k][i] = h * (double)f[k][i];
    for (int l = 0; l < c->link_count; l++) {
        if (!links->pulls[l])
            continue;
        uint32_t a = c->link_a[l], b = c->link_b[l];
        double J[6], t[3];
        double d[3] = {(double)c->x[b] - c->x[a], (double)c->y[b] - c->y[a], (double)c->z[b] - c->z[a]};
        double dvel[3] = {(double)v[0][b] - v[0][a], (double)v[1][b] - v[1][a], (double)v[2][b] - v[2][a]};
        implicit_spring_block(d, c->rest_length[l], links->k[l], true, J);
        block_times(J, dvel, t);
        for (int k = 0; k < 3; k++)
            im->r[k][a] += h * h * t[k], im->r[k][b] -= h * h * t[k];
    }
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < c->count; i++)
            if (c->inv_mass[i] == 0.0f)
                im->r[k][i] = 0.0, im->dv[k][i] = 0.0;
    double b_norm = sqrt(dot(im, im->r, im->r));
    if (b_norm == 0.0) {
        implicit_forget(im);
        return result;
    }
    /* r = b - A dv, from the last substep's dv */
    apply(im, c, links, im->dv, im->ap);
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < c->count; i++)
            im->r[k][i] -= im->ap[k][i];
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < c->count; i++)
            im->z[k][i] = im->r[k][i] / im->diag[k][i], im->p[k][i] = im->z[k][i];
    double rz = dot(im, im->r, im->z);
    double r_norm = sqrt(dot(im, im->r, im->r));
    while (r_norm > tolerance * b_norm && result.iterations < max_iterations) {
        apply(im, c, links, im->p, im->ap);
        double pap = dot(im, im->p, im->ap);
        if (!(pap > 0.0))
            break; /* p is 0 (converged to rounding) */
        double alpha = rz / pap;
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < c->count; i++) {
                im->dv[k][i] += alpha * im->p[k][i];
                im->r[k][i] -= alpha * im->ap[k][i];
                im->z[k][i] = im->r[k][i] / im->diag[k][i];
            }
        double rz_next = dot(im, im->r, im->z), beta = rz_next / rz;
        rz = rz_next;
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < c->count; i++)
                im->p[k][i] = im->z[k][i] + beta * im->p[k][i];
        r_norm = sqrt(dot(im, im->r, im->r));
        result.iterations++;
    }
    result.residual = r_norm / b_norm;
    return result;
}
