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
    int active;        /* links in the system this substep */
    uint32_t *ends;    /* their particles, two a link */
    double *block;     /* six entries a link: xx, xy, xz, yy, yz, zz */
    int fixed_count;   /* particles with no inverse mass this substep */
    uint32_t *fixed;
    /* the solve's vectors, three entries a particle side by side (a link
     * reads both its particles' three from one place) */
    double *x, *r, *p, *ap, *z, *inv_diag, *mass;
    double *dv[3]; /* the answer, one array a coordinate: INTEGRATE's input and the warm start */
    double *storage;
};

Implicit *implicit_create(int count, int link_count)
{
    Implicit *im = calloc(1, sizeof *im);
    if (!im)
        return NULL;
    im->count = count, im->link_count = link_count;
    size_t n = (size_t)(count > 0 ? count : 1), l = (size_t)(link_count > 0 ? link_count : 1);
    im->ends = calloc(2 * l, sizeof(uint32_t));
    im->fixed = calloc(n, sizeof(uint32_t));
    im->block = calloc(6 * l, sizeof(double));
    im->storage = calloc(n * 24, sizeof(double));
    if (!im->ends || !im->fixed || !im->block || !im->storage) {
        implicit_destroy(im);
        return NULL;
    }
    double **vectors[] = {&im->x, &im->r, &im->p, &im->ap, &im->z, &im->inv_diag, &im->mass};
    for (int v = 0; v < 7; v++)
        *vectors[v] = im->storage + (size_t)v * 3 * n;
    for (int k = 0; k < 3; k++)
        im->dv[k] = im->storage + 21 * n + (size_t)k * n;
    return im;
}

void implicit_destroy(Implicit *im)
{
    if (!im)
        return;
    free(im->ends);
    free(im->fixed);
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
static inline void block_times(const double *restrict B, const double *restrict u, double *restrict out)
{
    out[0] = B[0] * u[0] + B[1] * u[1] + B[2] * u[2];
    out[1] = B[1] * u[0] + B[3] * u[1] + B[4] * u[2];
    out[2] = B[2] * u[0] + B[4] * u[1] + B[5] * u[2];
}

/* out = A u, with the rows of particles that cannot move set to 0 (the
 * filter: their dv stays 0, and nothing in the solve pushes on them).
 * Returns u . out. */
static double apply(const Implicit *im, const double *restrict u, double *restrict out)
{
    const int n3 = 3 * im->count;
    for (int q = 0; q < n3; q++)
        out[q] = im->mass[q] * u[q];
    for (int l = 0; l < im->active; l++) {
        const double *ua = u + 3 * (size_t)im->ends[2 * l], *ub = u + 3 * (size_t)im->ends[2 * l + 1];
        double *oa = out + 3 * (size_t)im->ends[2 * l], *ob = out + 3 * (size_t)im->ends[2 * l + 1];
        double du[3] = {ub[0] - ua[0], ub[1] - ua[1], ub[2] - ua[2]}, t[3];
        block_times(im->block + 6 * (size_t)l, du, t);
        oa[0] -= t[0], oa[1] -= t[1], oa[2] -= t[2];
        ob[0] += t[0], ob[1] += t[1], ob[2] += t[2];
    }
    for (int f = 0; f < im->fixed_count; f++) {
        double *o = out + 3 * (size_t)im->fixed[f];
        o[0] = o[1] = o[2] = 0.0;
    }
    double sum = 0.0;
    for (int q = 0; q < n3; q++)
        sum += u[q] * out[q];
    return sum;
}

/* The system of this substep: each link's block B = h c n n^T + h^2 J,
 * A's diagonal, the fixed particles, and the right-hand side b = h f0 +
 * h^2 K v0 into r (K v0 at a is J (v_b - v_a): the blocks hold -K's
 * coupling). */
static void build(Implicit *im, const Cloth *c, const float *const f[3], const ImplicitLinks *links, double h)
{
    const int n = c->count;
    im->fixed_count = 0;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            im->mass[3 * i + k] = c->mass[i];
            im->inv_diag[3 * i + k] = c->mass[i]; /* the diagonal, inverted below */
            im->r[3 * i + k] = h * (double)f[k][i];
        }
        if (c->inv_mass[i] == 0.0f)
            im->fixed[im->fixed_count++] = (uint32_t)i;
    }
    const float *v[3] = {c->vx, c->vy, c->vz};
    const int row[6] = {0, 0, 0, 1, 1, 2}, col[6] = {0, 1, 2, 1, 2, 2};
    int active = 0;
    for (int l = 0; l < c->link_count; l++) {
        if (!links->pulls[l])
            continue;
        uint32_t a = c->link_a[l], b = c->link_b[l];
        double d[3] = {(double)c->x[b] - c->x[a], (double)c->y[b] - c->y[a], (double)c->z[b] - c->z[a]};
        double *B = im->block + 6 * (size_t)active, t[3];
        implicit_spring_block(d, c->rest_length[l], links->k[l], true, B);
        double dvel[3] = {(double)v[0][b] - v[0][a], (double)v[1][b] - v[1][a], (double)v[2][b] - v[2][a]};
        block_times(B, dvel, t);
        for (int k = 0; k < 3; k++)
            im->r[3 * a + k] += h * h * t[k], im->r[3 * b + k] -= h * h * t[k];
        double length = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double unit[3] = {d[0] / length, d[1] / length, d[2] / length};
        double damp = h * links->dashpot[l];
        for (int e = 0; e < 6; e++)
            B[e] = h * h * B[e] + damp * unit[row[e]] * unit[col[e]];
        /* the link adds B to both ends' diagonal blocks */
        const double diagonal[3] = {B[0], B[3], B[5]};
        for (int k = 0; k < 3; k++)
            im->inv_diag[3 * a + k] += diagonal[k], im->inv_diag[3 * b + k] += diagonal[k];
        im->ends[2 * active] = a, im->ends[2 * active + 1] = b;
        active++;
    }
    im->active = active;
    for (int q = 0; q < 3 * n; q++)
        im->inv_diag[q] = 1.0 / im->inv_diag[q];
    for (int f2 = 0; f2 < im->fixed_count; f2++)
        for (int k = 0; k < 3; k++)
            im->r[3 * im->fixed[f2] + k] = 0.0, im->dv[k][im->fixed[f2]] = 0.0;
}

ImplicitResult implicit_solve(Implicit *im, const Cloth *c, const float *const f[3], const ImplicitLinks *links,
                              double h, double tolerance, int max_iterations)
{
    ImplicitResult result = {0, 0.0};
    const int n3 = 3 * c->count;
    build(im, c, f, links, h);
    double b_norm2 = 0.0;
    for (int q = 0; q < n3; q++)
        b_norm2 += im->r[q] * im->r[q];
    if (b_norm2 == 0.0) {
        implicit_forget(im);
        return result;
    }
    /* x = the last substep's dv; r = b - A x */
    for (int i = 0; i < c->count; i++)
        for (int k = 0; k < 3; k++)
            im->x[3 * i + k] = im->dv[k][i];
    apply(im, im->x, im->ap);
    double rz = 0.0, r_norm2 = 0.0;
    for (int q = 0; q < n3; q++) {
        im->r[q] -= im->ap[q];
        im->z[q] = im->r[q] * im->inv_diag[q];
        im->p[q] = im->z[q];
        rz += im->r[q] * im->z[q];
        r_norm2 += im->r[q] * im->r[q];
    }
    const double goal2 = tolerance * tolerance * b_norm2;
    while (r_norm2 > goal2 && result.iterations < max_iterations) {
        double pap = apply(im, im->p, im->ap);
        if (!(pap > 0.0))
            break; /* p is 0 (converged to rounding) */
        double alpha = rz / pap, rz_next = 0.0;
        r_norm2 = 0.0;
        for (int q = 0; q < n3; q++) {
            im->x[q] += alpha * im->p[q];
            im->r[q] -= alpha * im->ap[q];
            im->z[q] = im->r[q] * im->inv_diag[q];
            rz_next += im->r[q] * im->z[q];
            r_norm2 += im->r[q] * im->r[q];
        }
        double beta = rz_next / rz;
        rz = rz_next;
        for (int q = 0; q < n3; q++)
            im->p[q] = im->z[q] + beta * im->p[q];
        result.iterations++;
    }
    for (int i = 0; i < c->count; i++)
        for (int k = 0; k < 3; k++)
            im->dv[k][i] = im->x[3 * i + k];
    result.residual = sqrt(r_norm2 / b_norm2);
    return result;
}
