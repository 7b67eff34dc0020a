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
 * one pass over the links. B is alpha n n^T + beta I (the spring's pull
 * along the link and its tension across it, the dashpot's along it), with
 * alpha >= 0, so a link keeps m = sqrt(alpha) n and beta, and B d is
 * (m . d) m + beta d. The preconditioner is A's diagonal (Jacobi).
 *
 * The pass goes by the offset from a link's first particle to its second:
 * in the grid every link of one family has the same one (1 across, cols
 * down, cols + 1 and cols - 1 the two shears, 2 and 2 cols the bends).
 * Each offset keeps its links' coefficients in an array indexed by the
 * first particle (0 where there is no link, or it takes no part), so the
 * pass over one offset reads u at i and i + offset, both in order, and
 * adds its pull back to both in two further loops in order: loops the
 * compiler runs four doubles at a time, where a list of links would
 * gather and scatter one at a time. The pass goes a tile of first
 * particles at a time, every offset in each (TILE below says why). The
 * same sums in the same order every run, so the same bits.
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
 */
#include "implicit.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* GCC on x86-64: a version of each loop below for AVX2 and one for any
 * x86-64, chosen at start; the lanes do the scalar loop's operations
 * (no FMA contraction under -std=c17), so the same bits either way. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define VECTOR_LOOP __attribute__((target_clones("avx2", "default"), optimize("tree-vectorize")))
#else
#define VECTOR_LOOP
#endif

/* Distinct offsets a grid's links have: six (fewer in a rope or a narrow grid). */
#define MAX_OFFSETS 6

/* One offset's links, by first particle: m and beta of B, and what the
 * build reads (rest length, spring constant, dashpot coefficient), 0 where
 * there is no link or it takes no part this substep. */
typedef struct Offset {
    int offset, span; /* span: first particles 0 .. span - 1 (count - offset) */
    double *mx, *my, *mz, *beta;
    double *rest, *k, *dashpot;
} Offset;

struct Implicit {
    int count, link_count;
    int offsets;
    Offset by_offset[MAX_OFFSETS];
    uint8_t *slot;     /* each link's offset, as an index into by_offset */
    uint32_t *first;   /* each link's first particle (the lower index) */
    bool gathered;     /* k and dashpot by offset hold the links of the versions below */
    unsigned torn_generation, constants_version;
    int fixed_count;   /* particles with no inverse mass this substep */
    uint32_t *fixed;
    double *x[3], *r[3], *p[3], *ap[3], *z[3], *inv_diag[3], *mass;
    double *dv[3];   /* the answer: INTEGRATE's input and the warm start */
    double *prev[3]; /* the substep's before: the warm start goes on from the two */
    double *storage;
};

Implicit *implicit_create(const Cloth *c)
{
    Implicit *im = calloc(1, sizeof *im);
    if (!im)
        return NULL;
    im->count = c->count, im->link_count = c->link_count;
    size_t n = (size_t)(c->count > 0 ? c->count : 1), l = (size_t)(c->link_count > 0 ? c->link_count : 1);
    im->slot = calloc(l, 1);
    im->first = calloc(l, sizeof(uint32_t));
    im->fixed = calloc(n, sizeof(uint32_t));
    if (!im->slot || !im->first || !im->fixed)
        goto fail;
    /* the offsets the links have */
    for (int link = 0; link < c->link_count; link++) {
        uint32_t a = c->link_a[link], b = c->link_b[link];
        int offset = a < b ? (int)(b - a) : (int)(a - b), found = -1;
        for (int o = 0; o < im->offsets; o++)
            if (im->by_offset[o].offset == offset)
                found = o;
        if (found < 0) {
            if (im->offsets == MAX_OFFSETS)
                goto fail; /* not a grid's links */
            found = im->offsets++;
            im->by_offset[found].offset = offset;
        }
        im->slot[link] = (uint8_t)found;
        im->first[link] = a < b ? a : b;
    }
    /* 7 arrays an offset, 3 x 7 + 1 + 3 a particle */
    im->storage = calloc(n * (size_t)(7 * im->offsets + 25), sizeof(double));
    if (!im->storage)
        goto fail;
    double *next = im->storage;
    for (int o = 0; o < im->offsets; o++) {
        Offset *f = &im->by_offset[o];
        f->span = c->count - f->offset;
        double **arrays[] = {&f->mx, &f->my, &f->mz, &f->beta, &f->rest, &f->k, &f->dashpot};
        for (int k = 0; k < 7; k++)
            *arrays[k] = next, next += n;
    }
    for (int k = 0; k < 3; k++) {
        double **vectors[] = {&im->x[k], &im->r[k], &im->p[k], &im->ap[k], &im->z[k], &im->inv_diag[k], &im->dv[k]};
        for (int v = 0; v < 7; v++)
            *vectors[v] = next, next += n;
    }
    im->mass = next;
    next += n;
    for (int k = 0; k < 3; k++)
        im->prev[k] = next, next += n;
    /* a link the grid may not have left duplicated: one slot, one link */
    for (int link = 0; link < c->link_count; link++) {
        Offset *f = &im->by_offset[im->slot[link]];
        assert(f->rest[im->first[link]] == 0.0);
        f->rest[im->first[link]] = c->rest_length[link];
    }
    return im;
fail:
    implicit_destroy(im);
    return NULL;
}

void implicit_destroy(Implicit *im)
{
    if (!im)
        return;
    free(im->slot);
    free(im->first);
    free(im->fixed);
    free(im->storage);
    free(im);
}

double *implicit_dv(Implicit *im, int coordinate) { return im->dv[coordinate]; }

/* dv = 0 and no warm start: what a substep with nothing to solve leaves. */
static void implicit_forget(Implicit *im)
{
    for (int k = 0; k < 3; k++) {
        memset(im->dv[k], 0, (size_t)im->count * sizeof(double));
        memset(im->prev[k], 0, (size_t)im->count * sizeof(double));
    }
}

double *implicit_dv_before(Implicit *im, int coordinate) { return im->prev[coordinate]; }

/* A spring's block for d = (dx, dy, dz) as along n n^T + across I, into
 * out: the one place its arithmetic is written (implicit_spring, and
 * tile_build's loop, where it is inlined and runs four links at a
 * time). No length: no direction, and no force. */
static inline ImplicitSpring spring_parts(double dx, double dy, double dz, double rest, double k, bool definite)
{
    /* selects between values worked out either way (no branch): what
     * lets the compiler run it several links at a time */
    double length = sqrt(dx * dx + dy * dy + dz * dz);
    bool some = length > 1e-12;
    double quotient = 1.0 / (some ? length : 1.0);
    double inv = some ? quotient : 0.0;
    double tension = 1.0 - rest * inv; /* the tension per metre of length, over k */
    double across = some ? tension : 0.0, stretched = across;
    if (definite)
        across = across > 0.0 ? across : 0.0;
    /* k (n n^T + across (I - n n^T)) = k (1 - across) n n^T + k across I */
    return (ImplicitSpring){{dx * inv, dy * inv, dz * inv}, k * (1.0 - across), k * across, k * stretched};
}

ImplicitSpring implicit_spring(const double d[3], double rest, double k, bool definite)
{
    return spring_parts(d[0], d[1], d[2], rest, k, definite);
}

/* One offset's pulls t = B (u[i + o] - u[i]) for first particles i = 0
 * .. span - 1 (pointers from the tile's first), taken from out[i] at
 * once; tile_push adds them at i + o. Inlined into apply_links, whose
 * clones run it four doubles at a time (restrict: no two arrays meet). */
static inline void tile_pulls(int o, int span, const double *restrict mx, const double *restrict my,
                              const double *restrict mz, const double *restrict beta,
                              const double *restrict ux, const double *restrict uy, const double *restrict uz,
                              double *restrict tx, double *restrict ty, double *restrict tz, double *restrict ox,
                              double *restrict oy, double *restrict oz)
{
    for (int i = 0; i < span; i++) {
        double dx = ux[i + o] - ux[i], dy = uy[i + o] - uy[i], dz = uz[i + o] - uz[i];
        double along = mx[i] * dx + my[i] * dy + mz[i] * dz;
        tx[i] = along * mx[i] + beta[i] * dx;
        ty[i] = along * my[i] + beta[i] * dy;
        tz[i] = along * mz[i] + beta[i] * dz;
        ox[i] -= tx[i], oy[i] -= ty[i], oz[i] -= tz[i];
    }
}

/* out[i] += t[i], in order (out from the pulled particles' first). */
static inline void tile_push(double *restrict out, const double *restrict t, int span)
{
    for (int i = 0; i < span; i++)
        out[i] += t[i];
}

/* First particles a tile of the pass over the links takes, every offset's
 * links from them before the next tile: the tile's pulls, and the parts of
 * u and out its links reach, stay in the first-level cache, and only the
 * links' coefficients come from further away. Taken offset by offset
 * through the whole cloth, each apply read out and u again from the second
 * level: the sandbox's curtain under implicit ran a quarter slower. Tiles
 * of 64 and 128 were alike there, 32 and 256 slower. */
#define TILE 128

/* out += the links' part of A u (out holds M u). */
VECTOR_LOOP static void apply_links(const Implicit *im, double *const u[3], double *const out[3])
{
    double tx[TILE], ty[TILE], tz[TILE];
    for (int s = 0; s < im->count; s += TILE)
        for (int o = 0; o < im->offsets; o++) {
            const Offset *f = &im->by_offset[o];
            int span = (f->span - s < TILE ? f->span - s : TILE), at = f->offset;
            if (span <= 0)
                continue;
            tile_pulls(at, span, f->mx + s, f->my + s, f->mz + s, f->beta + s, u[0] + s, u[1] + s, u[2] + s, tx,
                       ty, tz, out[0] + s, out[1] + s, out[2] + s);
            tile_push(out[0] + s + at, tx, span);
            tile_push(out[1] + s + at, ty, span);
            tile_push(out[2] + s + at, tz, span);
        }
}

VECTOR_LOOP static void times_mass(double *restrict out, const double *restrict mass, const double *restrict u, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = mass[i] * u[i];
}

/* a . b as four running sums, element i into sum i % 4, added at the end:
 * a fixed order (so the same bits from every version of the loop) that
 * the compiler may still keep in one vector of four. */
VECTOR_LOOP static double dot(const double *restrict a, const double *restrict b, int n)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; i++)
        s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

/* out = A u, with the rows of particles that cannot move set to 0 (the
 * filter: their dv stays 0, and nothing in the solve pushes on them).
 * Returns u . out. */
static double apply(const Implicit *im, double *const u[3], double *const out[3])
{
    const int n = im->count;
    for (int k = 0; k < 3; k++)
        times_mass(out[k], im->mass, u[k], n);
    apply_links(im, u, out);
    for (int i = 0; i < im->fixed_count; i++)
        for (int k = 0; k < 3; k++)
            out[k][im->fixed[i]] = 0.0;
    return dot(u[0], out[0], n) + dot(u[1], out[1], n) + dot(u[2], out[2], n);
}

/* One offset's links' part of the system for first particles i = 0 ..
 * span - 1 (second i + o; pointers from the tile's first): m = sqrt(h^2
 * along + h c) n and beta = h^2 across of B (0 where no link takes part:
 * k and c are 0 there); into t the opposite of h f_a + h^2 J (v_b - v_a),
 * the link's part of b at i, f_a the spring's and dashpot's force on its
 * first particle; into g what B adds to its ends' diagonal, m_k^2 + beta.
 * The first particle's parts go straight into r (less t) and a, the
 * diagonal (plus g); build_links adds the second's. */
VECTOR_LOOP static void tile_build(int o, int span, double h, const float *restrict x, const float *restrict y,
                                  const float *restrict z, const float *restrict vx, const float *restrict vy,
                                  const float *restrict vz, const double *restrict rest, const double *restrict k,
                                  const double *restrict dashpot, double *restrict mx, double *restrict my,
                                  double *restrict mz, double *restrict beta, double *restrict tx, double *restrict ty,
                                  double *restrict tz, double *restrict gx, double *restrict gy, double *restrict gz,
                                  double *restrict rx, double *restrict ry, double *restrict rz, double *restrict ax,
                                  double *restrict ay, double *restrict az)
{
    const double h2 = h * h;
    for (int i = 0; i < span; i++) {
        double dx = (double)x[i + o] - x[i], dy = (double)y[i + o] - y[i], dz = (double)z[i + o] - z[i];
        ImplicitSpring J = spring_parts(dx, dy, dz, rest[i], k[i], true);
        double along_k = J.along, across_k = J.across, ux = J.n[0], uy = J.n[1], uz = J.n[2];
        double wx = (double)vx[i + o] - vx[i], wy = (double)vy[i + o] - vy[i], wz = (double)vz[i + o] - vz[i];
        double closing = ux * wx + uy * wy + uz * wz, pull = along_k * closing;
        double damped = dashpot[i] * closing; /* the dashpot's pull along n */
        double root = sqrt(h2 * along_k + h * dashpot[i]); /* along_k >= 0: across <= 1 */
        mx[i] = root * ux, my[i] = root * uy, mz[i] = root * uz;
        beta[i] = h2 * across_k;
        tx[i] = -(h * (J.tension * dx + damped * ux) + h2 * (pull * ux + across_k * wx));
        ty[i] = -(h * (J.tension * dy + damped * uy) + h2 * (pull * uy + across_k * wy));
        tz[i] = -(h * (J.tension * dz + damped * uz) + h2 * (pull * uz + across_k * wz));
        gx[i] = mx[i] * mx[i] + beta[i];
        gy[i] = my[i] * my[i] + beta[i];
        gz[i] = mz[i] * mz[i] + beta[i];
        rx[i] -= tx[i], ry[i] -= ty[i], rz[i] -= tz[i]; /* r[i] += J dv; r[i + o] -= it in build_links */
        ax[i] += gx[i], ay[i] += gy[i], az[i] += gz[i];
    }
}

/* Every link's part of b (into r) and of A's diagonal (into diagonal),
 * tile by tile as apply_links goes. */
VECTOR_LOOP static void build_links(Implicit *im, const Cloth *c, double h, double *const diagonal[3])
{
    double tx[TILE], ty[TILE], tz[TILE], gx[TILE], gy[TILE], gz[TILE];
    double *t[3] = {tx, ty, tz}, *g[3] = {gx, gy, gz};
    for (int s = 0; s < im->count; s += TILE)
        for (int o = 0; o < im->offsets; o++) {
            Offset *f = &im->by_offset[o];
            int span = (f->span - s < TILE ? f->span - s : TILE), at = f->offset;
            if (span <= 0)
                continue;
            tile_build(at, span, h, c->x + s, c->y + s, c->z + s, c->vx + s, c->vy + s, c->vz + s, f->rest + s,
                       f->k + s, f->dashpot + s, f->mx + s, f->my + s, f->mz + s, f->beta + s, tx, ty, tz, gx, gy,
                       gz, im->r[0] + s, im->r[1] + s, im->r[2] + s, diagonal[0] + s, diagonal[1] + s,
                       diagonal[2] + s);
            for (int k = 0; k < 3; k++) {
                tile_push(im->r[k] + s + at, t[k], span);
                tile_push(diagonal[k] + s + at, g[k], span);
            }
        }
}

/* The system of this substep: each link's B = h c n n^T + h^2 J, A's
 * diagonal (inverted), the fixed particles, and the right-hand side b =
 * h f0 + h^2 K v0 into r (K v0 at a is J (v_b - v_a): the blocks hold
 * -K's coupling). */
VECTOR_LOOP static void widen(double *restrict out, const float *restrict in, double factor, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = factor * (double)in[i];
}

VECTOR_LOOP static void invert(double *restrict d, int n)
{
    for (int i = 0; i < n; i++)
        d[i] = 1.0 / d[i];
}

static void build(Implicit *im, const Cloth *c, const float *const f[3], const ImplicitLinks *links, double h)
{
    const int n = c->count;
    widen(im->mass, c->mass, 1.0, n);
    for (int k = 0; k < 3; k++) {
        widen(im->inv_diag[k], c->mass, 1.0, n); /* the diagonal, inverted below */
        widen(im->r[k], f[k], h, n);
    }
    im->fixed_count = 0;
    for (int i = 0; i < n; i++)
        if (c->inv_mass[i] == 0.0f)
            im->fixed[im->fixed_count++] = (uint32_t)i;
    /* the links' constants by first particle, 0 where a link takes no
     * part, read again only when they changed */
    if (!im->gathered || links->torn_generation != im->torn_generation ||
        links->constants_version != im->constants_version) {
        for (int link = 0; link < c->link_count; link++) {
            Offset *o = &im->by_offset[im->slot[link]];
            uint32_t i = im->first[link];
            bool part = !links->torn[link] && links->k[link] > 0.0f; /* as the other integrators' springs */
            o->k[i] = part ? links->k[link] : 0.0;
            o->dashpot[i] = part ? links->dashpot[link] : 0.0;
        }
        im->gathered = true;
        im->torn_generation = links->torn_generation, im->constants_version = links->constants_version;
    }
    build_links(im, c, h, im->inv_diag);
    for (int k = 0; k < 3; k++)
        invert(im->inv_diag[k], n);
    for (int i = 0; i < im->fixed_count; i++)
        for (int k = 0; k < 3; k++)
            im->r[k][im->fixed[i]] = 0.0, im->dv[k][im->fixed[i]] = 0.0;
}

/* The conjugate-gradient update: x += alpha p, r -= alpha Ap, z = r / diag;
 * returns r . z, and r . r in r_norm2, summed as dot sums (element i into
 * sum i % 4) in the same pass. */
VECTOR_LOOP static double cg_update(double *restrict x, double *restrict r, double *restrict z,
                                    const double *restrict p, const double *restrict ap,
                                    const double *restrict inv_diag, double alpha, int n, double *r_norm2)
{
    double rr[4] = {0.0, 0.0, 0.0, 0.0}, rz[4] = {0.0, 0.0, 0.0, 0.0};
    int i = 0;
    for (; i + 4 <= n; i += 4)
        for (int l = 0; l < 4; l++) {
            x[i + l] += alpha * p[i + l];
            double ri = r[i + l] - alpha * ap[i + l], zi = ri * inv_diag[i + l];
            r[i + l] = ri, z[i + l] = zi;
            rr[l] += ri * ri, rz[l] += ri * zi;
        }
    for (; i < n; i++) {
        x[i] += alpha * p[i];
        double ri = r[i] - alpha * ap[i], zi = ri * inv_diag[i];
        r[i] = ri, z[i] = zi;
        rr[0] += ri * ri, rz[0] += ri * zi;
    }
    *r_norm2 = (rr[0] + rr[1]) + (rr[2] + rr[3]);
    return (rz[0] + rz[1]) + (rz[2] + rz[3]);
}

VECTOR_LOOP static void cg_direction(double *restrict p, const double *restrict z, double beta, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = z[i] + beta * p[i];
}

ImplicitResult implicit_solve(Implicit *im, const Cloth *c, const float *const f[3], const ImplicitLinks *links,
                              double h, double tolerance, int max_iterations)
{
    ImplicitResult result = {0, 0.0};
    const int n = c->count;
    build(im, c, f, links, h);
    double b_norm2 = dot(im->r[0], im->r[0], n) + dot(im->r[1], im->r[1], n) + dot(im->r[2], im->r[2], n);
    if (b_norm2 == 0.0) {
        implicit_forget(im);
        return result;
    }
    /* x from the last two substeps' dv, as if it changed at a steady rate
     * (on the curtain 4.2 iterations a substep where the last dv alone
     * takes 5.0); r = b - A x (an update by A x with no step along p = 0) */
    double rz = 0.0, r_norm2 = 0.0;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < n; i++)
            im->x[k][i] = 2.0 * im->dv[k][i] - im->prev[k][i], im->prev[k][i] = im->dv[k][i];
    apply(im, im->x, im->ap);
    for (int k = 0; k < 3; k++) {
        double rr;
        memset(im->p[k], 0, (size_t)n * sizeof(double));
        rz += cg_update(im->x[k], im->r[k], im->z[k], im->p[k], im->ap[k], im->inv_diag[k], 1.0, n, &rr);
        r_norm2 += rr;
        memcpy(im->p[k], im->z[k], (size_t)n * sizeof(double));
    }
    const double goal2 = tolerance * tolerance * b_norm2;
    while (r_norm2 > goal2 && result.iterations < max_iterations) {
        double pap = apply(im, im->p, im->ap);
        if (!(pap > 0.0))
            break; /* p is 0 (converged to rounding) */
        double alpha = rz / pap, rz_next = 0.0;
        r_norm2 = 0.0;
        for (int k = 0; k < 3; k++) {
            double rr;
            rz_next += cg_update(im->x[k], im->r[k], im->z[k], im->p[k], im->ap[k], im->inv_diag[k], alpha, n, &rr);
            r_norm2 += rr;
        }
        double beta = rz_next / rz;
        rz = rz_next;
        for (int k = 0; k < 3; k++)
            cg_direction(im->p[k], im->z[k], beta, n);
        result.iterations++;
    }
    for (int k = 0; k < 3; k++)
        memcpy(im->dv[k], im->x[k], (size_t)n * sizeof(double));
    result.residual = sqrt(r_norm2 / b_norm2);
    return result;
}
