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
 * (m . d) m + beta d.
 *
 * The preconditioner is each particle's 3 x 3 block of A, inverted (block
 * Jacobi): a curved cloth's stiff directions are not the axes, and the
 * block sees them where A's diagonal alone does not. Where stiff links
 * tie the whole cloth into one (spring_k 1e4 and over at dt = 0.1 s), a
 * coarse level joins it after COARSE_AFTER iterations: squares of
 * particles moving as one, the system restricted to those motions (P^T A
 * P) and solved whole (two-level additive Schwarz, in the spirit of
 * Toselli and Widlund's "Domain Decomposition Methods", 2005). The first
 * level smooths what is local, the coarse one carries what is long, and
 * conjugate gradients need tens of iterations where they needed
 * thousands.
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

#include "level.h"

/* GCC on x86-64: a build of each loop below for AVX2 and one for any
 * x86-64 (core/level.h), the one of the level chosen at start (AVX2's at
 * avx512 too); the lanes do the scalar loop's operations
 * (no FMA contraction under -std=c17), so the same bits either way. */

/* Distinct offsets a grid's links have: six (fewer in a rope or a narrow grid). */
#define MAX_OFFSETS 6

/* One offset's links, by first particle: m and beta of B, and what the
 * build reads (rest length, spring constant, dashpot coefficient), 0 where
 * there is no link or it takes no part this substep. */
typedef struct Offset {
    int offset, span; /* span: first particles 0 .. span - 1 (count - offset) */
    double *mx, *my, *mz, *beta;
    double *inv_length; /* 1 / |d| where the springs were linearised (0 for no length) */
    double *rest, *k, *dashpot;
} Offset;

/* The coarse level of the preconditioner (implicit_solve says when it
 * runs): the grid cut into squares of `side` x `side` particles, each
 * square one coarse particle that moves all of its free particles alike,
 * and A's restriction to those motions, P^T A P, factored (Cholesky, in
 * the band the grid's order leaves it: a link joins two squares at most one
 * square apart each way). */
typedef struct Coarse {
    int side, cols, rows, count; /* squares */
    int dofs, band;              /* 3 count unknowns; the band's half width */
    int *square;                 /* each particle's square, -1 where it cannot move */
    double *factor;              /* L, row i at i (band + 1): L[i][i - j] at i (band + 1) + i - j */
    double *rc;                  /* restricted residual, then the coarse answer */
    bool ready;                  /* factored for this linearisation */
} Coarse;

struct Implicit {
    int count, link_count;
    int offsets;
    Offset by_offset[MAX_OFFSETS];
    uint8_t *slot;   /* each link's offset, as an index into by_offset */
    uint32_t *first; /* each link's first particle (the lower index) */
    bool gathered;   /* k and dashpot by offset hold the links of the versions below */
    unsigned torn_generation, constants_version;
    int fixed_count; /* particles with no inverse mass this substep */
    uint32_t *fixed;
    double *x[3], *r[3], *p[3], *ap[3], *z[3], *mass;
    /* the preconditioner: each particle's 3 x 3 block of A, inverted
     * (block[0..2] its diagonal xx, yy, zz, block[3..5] xy, xz, yz) */
    double *block[6];
    /* where the springs are linearised (m), the velocities at the
     * substep's start (m/s, the dashpots'), and e = (x0 + h v0 - lin) / h
     * (m/s; the springs' part of b is h^2 J e) */
    double *lin[3], *vel[3], *e[3];
    double *next[3]; /* x0 + h (v0 + dv): where the answer puts the particles (m) */
    double *dv[3];   /* the answer: INTEGRATE's input and the warm start */
    double *prev[3]; /* the substep's before: the warm start goes on from the two */
    double *storage;
    Coarse coarse;
};

/* Squares of COARSE_SIDE particles a side, more where the grid would give
 * more than COARSE_MOST a way: the factor's work is dofs band^2 / 2, some
 * 0.7 M multiplications for the 30 x 24 curtain, as much at 200 x 200. */
#define COARSE_SIDE 2
#define COARSE_MOST 16

static bool coarse_create(Coarse *co, const Cloth *c)
{
    int longest = c->cols > c->rows ? c->cols : c->rows;
    co->side = COARSE_SIDE;
    while ((longest + co->side - 1) / co->side > COARSE_MOST)
        co->side++;
    co->cols = (c->cols + co->side - 1) / co->side, co->rows = (c->rows + co->side - 1) / co->side;
    co->count = co->cols * co->rows, co->dofs = 3 * co->count;
    co->band = 3 * (co->cols + 1) + 2;
    co->square = calloc((size_t)(c->count > 0 ? c->count : 1), sizeof(int));
    co->factor = calloc((size_t)co->dofs * (size_t)(co->band + 1), sizeof(double));
    co->rc = calloc((size_t)co->dofs, sizeof(double));
    return co->square && co->factor && co->rc;
}

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
    /* 8 arrays an offset, 3 x 6 + 6 + 1 + 3 + 12 a particle */
    im->storage = calloc(n * (size_t)(8 * im->offsets + 40), sizeof(double));
    if (!im->storage)
        goto fail;
    double *next = im->storage;
    for (int o = 0; o < im->offsets; o++) {
        Offset *f = &im->by_offset[o];
        f->span = c->count - f->offset;
        double **arrays[] = {&f->mx, &f->my, &f->mz, &f->beta, &f->inv_length, &f->rest, &f->k, &f->dashpot};
        for (int k = 0; k < 8; k++)
            *arrays[k] = next, next += n;
    }
    for (int k = 0; k < 3; k++) {
        double **vectors[] = {&im->x[k],  &im->r[k],   &im->p[k],   &im->ap[k], &im->z[k],
                              &im->dv[k], &im->lin[k], &im->vel[k], &im->e[k],  &im->next[k]};
        for (int v = 0; v < 10; v++)
            *vectors[v] = next, next += n;
    }
    for (int k = 0; k < 6; k++)
        im->block[k] = next, next += n;
    if (!coarse_create(&im->coarse, c))
        goto fail;
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
    free(im->coarse.square), free(im->coarse.factor), free(im->coarse.rc);
    free(im);
}

double *implicit_dv(Implicit *im, int coordinate)
{
    return im->dv[coordinate];
}

/* dv = 0 and no warm start: what a substep with nothing to solve leaves. */
static void implicit_forget(Implicit *im)
{
    for (int k = 0; k < 3; k++) {
        memset(im->dv[k], 0, (size_t)im->count * sizeof(double));
        memset(im->prev[k], 0, (size_t)im->count * sizeof(double));
    }
}

double *implicit_dv_before(Implicit *im, int coordinate)
{
    return im->prev[coordinate];
}

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
    return (ImplicitSpring){{dx * inv, dy * inv, dz * inv}, k * (1.0 - across), k * across, k * stretched, inv};
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
                              const double *restrict mz, const double *restrict beta, const double *restrict ux,
                              const double *restrict uy, const double *restrict uz, double *restrict tx,
                              double *restrict ty, double *restrict tz, double *restrict ox, double *restrict oy,
                              double *restrict oz)
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
LEVEL_BODY static void apply_links_body(const Implicit *im, double *const u[3], double *const out[3])
{
    double tx[TILE], ty[TILE], tz[TILE];
    for (int s = 0; s < im->count; s += TILE)
        for (int o = 0; o < im->offsets; o++) {
            const Offset *f = &im->by_offset[o];
            int span = (f->span - s < TILE ? f->span - s : TILE), at = f->offset;
            if (span <= 0)
                continue;
            tile_pulls(at, span, f->mx + s, f->my + s, f->mz + s, f->beta + s, u[0] + s, u[1] + s, u[2] + s, tx, ty, tz,
                       out[0] + s, out[1] + s, out[2] + s);
            tile_push(out[0] + s + at, tx, span);
            tile_push(out[1] + s + at, ty, span);
            tile_push(out[2] + s + at, tz, span);
        }
}
LEVEL_LOOPS_AVX2(CORE_LOOPS_IMPLICIT, apply_links, (const Implicit *im, double *const u[3], double *const out[3]),
                 (im, u, out))

LEVEL_BODY static void times_mass_body(double *restrict out, const double *restrict mass, const double *restrict u,
                                       int n)
{
    for (int i = 0; i < n; i++)
        out[i] = mass[i] * u[i];
}
LEVEL_LOOPS_AVX2(CORE_LOOPS_IMPLICIT, times_mass,
                 (double *restrict out, const double *restrict mass, const double *restrict u, int n),
                 (out, mass, u, n))

/* a . b as four running sums, element i into sum i % 4, added at the end:
 * a fixed order (so the same bits from every version of the loop) that
 * the compiler may still keep in one vector of four. */
LEVEL_BODY static double dot_body(const double *restrict a, const double *restrict b, int n)
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
LEVEL_LOOPS_AVX2_RETURNING(CORE_LOOPS_IMPLICIT, double, dot,
                           (const double *restrict a, const double *restrict b, int n), (a, b, n))

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
 * span - 1 (second i + o; pointers from the tile's first), the springs
 * linearised at positions x: m = sqrt(h^2 along + h c) n and beta = h^2
 * across of B (0 where no link takes part: k and c are 0 there); into t
 * the opposite of h f_a + h^2 J (e_b - e_a), the link's part of b at i,
 * f_a the spring's force at x and the dashpot's at the velocities v on
 * its first particle; into g what B adds to its ends' diagonal, m_k^2 +
 * beta. The first particle's parts go straight into r (less t) and a, the
 * diagonal (plus g); build_links adds the second's. */
LEVEL_BODY static void tile_build_body(int o, int span, double h, const double *restrict x, const double *restrict y,
                                       const double *restrict z, const double *restrict vx, const double *restrict vy,
                                       const double *restrict vz, const double *restrict ex, const double *restrict ey,
                                       const double *restrict ez, const double *restrict rest, const double *restrict k,
                                       const double *restrict dashpot, double *restrict mx, double *restrict my,
                                       double *restrict mz, double *restrict beta, double *restrict inv_length,
                                       double *restrict tx, double *restrict ty, double *restrict tz,
                                       double *restrict gx, double *restrict gy, double *restrict gz,
                                       double *restrict rx, double *restrict ry, double *restrict rz,
                                       double *restrict ax, double *restrict ay, double *restrict az)
{
    const double h2 = h * h;
    for (int i = 0; i < span; i++) {
        double dx = x[i + o] - x[i], dy = y[i + o] - y[i], dz = z[i + o] - z[i];
        ImplicitSpring J = spring_parts(dx, dy, dz, rest[i], k[i], true);
        double along_k = J.along, across_k = J.across, ux = J.n[0], uy = J.n[1], uz = J.n[2];
        double wx = vx[i + o] - vx[i], wy = vy[i + o] - vy[i], wz = vz[i + o] - vz[i];
        double sx = ex[i + o] - ex[i], sy = ey[i + o] - ey[i], sz = ez[i + o] - ez[i];
        double closing = ux * wx + uy * wy + uz * wz, pull = along_k * (ux * sx + uy * sy + uz * sz);
        double damped = dashpot[i] * closing;              /* the dashpot's pull along n */
        double root = sqrt(h2 * along_k + h * dashpot[i]); /* along_k >= 0: across <= 1 */
        mx[i] = root * ux, my[i] = root * uy, mz[i] = root * uz;
        beta[i] = h2 * across_k;
        inv_length[i] = J.inv_length;
        tx[i] = -(h * (J.tension * dx + damped * ux) + h2 * (pull * ux + across_k * sx));
        ty[i] = -(h * (J.tension * dy + damped * uy) + h2 * (pull * uy + across_k * sy));
        tz[i] = -(h * (J.tension * dz + damped * uz) + h2 * (pull * uz + across_k * sz));
        gx[i] = mx[i] * mx[i] + beta[i];
        gy[i] = my[i] * my[i] + beta[i];
        gz[i] = mz[i] * mz[i] + beta[i];
        rx[i] -= tx[i], ry[i] -= ty[i], rz[i] -= tz[i]; /* r[i] += J dv; r[i + o] -= it in build_links */
        ax[i] += gx[i], ay[i] += gy[i], az[i] += gz[i];
    }
}
LEVEL_LOOPS_AVX2(CORE_LOOPS_IMPLICIT, tile_build,
                 (int o, int span, double h, const double *restrict x, const double *restrict y,
                  const double *restrict z, const double *restrict vx, const double *restrict vy,
                  const double *restrict vz, const double *restrict ex, const double *restrict ey,
                  const double *restrict ez, const double *restrict rest, const double *restrict k,
                  const double *restrict dashpot, double *restrict mx, double *restrict my, double *restrict mz,
                  double *restrict beta, double *restrict inv_length, double *restrict tx, double *restrict ty,
                  double *restrict tz, double *restrict gx, double *restrict gy, double *restrict gz,
                  double *restrict rx, double *restrict ry, double *restrict rz, double *restrict ax,
                  double *restrict ay, double *restrict az),
                 (o, span, h, x, y, z, vx, vy, vz, ex, ey, ez, rest, k, dashpot, mx, my, mz, beta, inv_length, tx, ty,
                  tz, gx, gy, gz, rx, ry, rz, ax, ay, az))

/* One offset's links' part of the blocks' off-diagonal entries: m_x m_y,
 * m_x m_z and m_y m_z of B, into g and at once into the first particles'
 * blocks (build_links adds them at the second). */
LEVEL_BODY static void tile_off_diagonal_body(int span, const double *restrict mx, const double *restrict my,
                                              const double *restrict mz, double *restrict gxy, double *restrict gxz,
                                              double *restrict gyz, double *restrict axy, double *restrict axz,
                                              double *restrict ayz)
{
    for (int i = 0; i < span; i++) {
        gxy[i] = mx[i] * my[i], gxz[i] = mx[i] * mz[i], gyz[i] = my[i] * mz[i];
        axy[i] += gxy[i], axz[i] += gxz[i], ayz[i] += gyz[i];
    }
}
LEVEL_LOOPS_AVX2(CORE_LOOPS_IMPLICIT, tile_off_diagonal,
                 (int span, const double *restrict mx, const double *restrict my, const double *restrict mz,
                  double *restrict gxy, double *restrict gxz, double *restrict gyz, double *restrict axy,
                  double *restrict axz, double *restrict ayz),
                 (span, mx, my, mz, gxy, gxz, gyz, axy, axz, ayz))

/* Every link's part of b (into r) and of A's blocks (into block), tile by
 * tile as apply_links goes, the springs linearised at positions lin and
 * their part of b h^2 J e (implicit_solve says what e is). */
LEVEL_BODY static void build_links_body(Implicit *im, double h, double *const lin[3], double *const e[3])
{
    double t[6][TILE], g[3][TILE];
    double **block = im->block;
    for (int s = 0; s < im->count; s += TILE)
        for (int o = 0; o < im->offsets; o++) {
            Offset *f = &im->by_offset[o];
            int span = (f->span - s < TILE ? f->span - s : TILE), at = f->offset;
            if (span <= 0)
                continue;
            tile_build(at, span, h, lin[0] + s, lin[1] + s, lin[2] + s, im->vel[0] + s, im->vel[1] + s, im->vel[2] + s,
                       e[0] + s, e[1] + s, e[2] + s, f->rest + s, f->k + s, f->dashpot + s, f->mx + s, f->my + s,
                       f->mz + s, f->beta + s, f->inv_length + s, t[0], t[1], t[2], g[0], g[1], g[2], im->r[0] + s,
                       im->r[1] + s, im->r[2] + s, block[0] + s, block[1] + s, block[2] + s);
            tile_off_diagonal(span, f->mx + s, f->my + s, f->mz + s, t[3], t[4], t[5], block[3] + s, block[4] + s,
                              block[5] + s);
            for (int k = 0; k < 3; k++) {
                tile_push(im->r[k] + s + at, t[k], span);
                tile_push(block[k] + s + at, g[k], span);
                tile_push(block[3 + k] + s + at, t[3 + k], span);
            }
        }
}
LEVEL_LOOPS_AVX2(CORE_LOOPS_IMPLICIT, build_links, (Implicit * im, double h, double *const lin[3], double *const e[3]),
                 (im, h, lin, e))

LEVEL_BODY static void widen_body(double *restrict out, const float *restrict in, double factor, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = factor * (double)in[i];
}
LEVEL_LOOPS_AVX2(CORE_LOOPS_IMPLICIT, widen, (double *restrict out, const float *restrict in, double factor, int n),
                 (out, in, factor, n))

/* Each particle's block of A (symmetric, positive definite: its mass
 * times I plus its links' B, each positive semidefinite) inverted in
 * place, by cofactors. */
LEVEL_BODY static void invert_blocks_body(double *restrict xx, double *restrict yy, double *restrict zz,
                                          double *restrict xy, double *restrict xz, double *restrict yz, int n)
{
    for (int i = 0; i < n; i++) {
        double a = xx[i], b = yy[i], c = zz[i], d = xy[i], e = xz[i], f = yz[i];
        double c00 = b * c - f * f, c11 = a * c - e * e, c22 = a * b - d * d;
        double c01 = e * f - d * c, c02 = d * f - e * b, c12 = d * e - a * f;
        double inv = 1.0 / (a * c00 + d * c01 + e * c02);
        xx[i] = c00 * inv, yy[i] = c11 * inv, zz[i] = c22 * inv;
        xy[i] = c01 * inv, xz[i] = c02 * inv, yz[i] = c12 * inv;
    }
}
LEVEL_LOOPS_AVX2(CORE_LOOPS_IMPLICIT, invert_blocks,
                 (double *restrict xx, double *restrict yy, double *restrict zz, double *restrict xy,
                  double *restrict xz, double *restrict yz, int n),
                 (xx, yy, zz, xy, xz, yz, n))

/* The system of this substep, the springs linearised at positions lin:
 * each link's B = h c n n^T + h^2 J, A's blocks (inverted: the
 * preconditioner), the fixed particles, and the right-hand side b = h f +
 * h^2 K e into r, f the forces at lin and at the velocities vel (K e at a
 * is J (e_b - e_a): the blocks hold -K's coupling). */
static void build(Implicit *im, const Cloth *c, const float *const f[3], const ImplicitLinks *links, double h,
                  double *const lin[3], double *const e[3])
{
    const int n = c->count;
    widen(im->mass, c->mass, 1.0, n);
    for (int k = 0; k < 3; k++) {
        widen(im->block[k], c->mass, 1.0, n); /* the blocks, inverted below */
        memset(im->block[3 + k], 0, (size_t)n * sizeof(double));
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
    build_links(im, h, lin, e);
    invert_blocks(im->block[0], im->block[1], im->block[2], im->block[3], im->block[4], im->block[5], n);
    im->coarse.ready = false; /* built when a solve wants it (conjugate_gradients) */
    for (int i = 0; i < im->fixed_count; i++)
        for (int k = 0; k < 3; k++)
            im->r[k][im->fixed[i]] = 0.0, im->dv[k][im->fixed[i]] = 0.0;
}

/* The conjugate-gradient update: x += alpha p, r -= alpha Ap, z = the
 * blocks' inverse times r; returns r . z, and r . r in r_norm2, summed as
 * dot sums (particle i into sum i % 4) in the same pass. */
LEVEL_BODY static double cg_update_body(double *restrict x0, double *restrict x1, double *restrict x2,
                                        double *restrict r0, double *restrict r1, double *restrict r2,
                                        double *restrict z0, double *restrict z1, double *restrict z2,
                                        const double *restrict p0, const double *restrict p1, const double *restrict p2,
                                        const double *restrict ap0, const double *restrict ap1,
                                        const double *restrict ap2, const double *restrict xx,
                                        const double *restrict yy, const double *restrict zz, const double *restrict xy,
                                        const double *restrict xz, const double *restrict yz, double alpha, int n,
                                        double *r_norm2)
{
    double rr[4] = {0.0, 0.0, 0.0, 0.0}, rz[4] = {0.0, 0.0, 0.0, 0.0};
    for (int i = 0; i < n; i += 4)
        for (int l = 0; l < 4 && i + l < n; l++) {
            int j = i + l;
            x0[j] += alpha * p0[j], x1[j] += alpha * p1[j], x2[j] += alpha * p2[j];
            double a = r0[j] - alpha * ap0[j], b = r1[j] - alpha * ap1[j], c = r2[j] - alpha * ap2[j];
            double za = xx[j] * a + xy[j] * b + xz[j] * c;
            double zb = xy[j] * a + yy[j] * b + yz[j] * c;
            double zc = xz[j] * a + yz[j] * b + zz[j] * c;
            r0[j] = a, r1[j] = b, r2[j] = c, z0[j] = za, z1[j] = zb, z2[j] = zc;
            rr[l] += a * a + b * b + c * c;
            rz[l] += a * za + b * zb + c * zc;
        }
    *r_norm2 = (rr[0] + rr[1]) + (rr[2] + rr[3]);
    return (rz[0] + rz[1]) + (rz[2] + rz[3]);
}
LEVEL_LOOPS_AVX2_RETURNING(CORE_LOOPS_IMPLICIT, double, cg_update,
                           (double *restrict x0, double *restrict x1, double *restrict x2, double *restrict r0,
                            double *restrict r1, double *restrict r2, double *restrict z0, double *restrict z1,
                            double *restrict z2, const double *restrict p0, const double *restrict p1,
                            const double *restrict p2, const double *restrict ap0, const double *restrict ap1,
                            const double *restrict ap2, const double *restrict xx, const double *restrict yy,
                            const double *restrict zz, const double *restrict xy, const double *restrict xz,
                            const double *restrict yz, double alpha, int n, double *r_norm2),
                           (x0, x1, x2, r0, r1, r2, z0, z1, z2, p0, p1, p2, ap0, ap1, ap2, xx, yy, zz, xy, xz, yz,
                            alpha, n, r_norm2))

static double update(Implicit *im, double alpha, double *r_norm2)
{
    double **b = im->block;
    return cg_update(im->x[0], im->x[1], im->x[2], im->r[0], im->r[1], im->r[2], im->z[0], im->z[1], im->z[2], im->p[0],
                     im->p[1], im->p[2], im->ap[0], im->ap[1], im->ap[2], b[0], b[1], b[2], b[3], b[4], b[5], alpha,
                     im->count, r_norm2);
}

LEVEL_BODY static void cg_direction_body(double *restrict p, const double *restrict z, double beta, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = z[i] + beta * p[i];
}
LEVEL_LOOPS_AVX2(CORE_LOOPS_IMPLICIT, cg_direction, (double *restrict p, const double *restrict z, double beta, int n),
                 (p, z, beta, n))

/* x1 = x0 + h (v0 + dv), dv in im->x, e = -dv: where the answer puts the
 * particles, and what the next linearisation there takes (implicit_solve). */
LEVEL_BODY static void answer_at_body(double *restrict next, double *restrict e, const float *restrict x0,
                                      const double *restrict v0, const double *restrict dv, double h, int n)
{
    for (int i = 0; i < n; i++)
        next[i] = (double)x0[i] + h * (v0[i] + dv[i]), e[i] = -dv[i];
}
LEVEL_LOOPS_AVX2(CORE_LOOPS_IMPLICIT, answer_at,
                 (double *restrict next, double *restrict e, const float *restrict x0, const double *restrict v0,
                  const double *restrict dv, double h, int n),
                 (next, e, x0, v0, dv, h, n))

/* One offset's links' part of linear_model_holds, over first particles 0
 * .. span - 1 (second i + o): the largest of |d1|^2 - (n . d1 + error
 * rest)^2 over the links that take part (1 where n . d1 + error rest < 0),
 * which is > 0 where one is more than error rest off; d the link's vector
 * where it was linearised (x), d1 at the answer (x1), n = d / |d|. */
LEVEL_BODY static double offset_model_excess_body(int o, int span, const double *restrict x, const double *restrict y,
                                                  const double *restrict z, const double *restrict x1,
                                                  const double *restrict y1, const double *restrict z1,
                                                  const double *restrict inv_length, const double *restrict rest,
                                                  const double *restrict k, double error)
{
    double worst = -1.0;
    for (int i = 0; i < span; i++) {
        double dx = x[i + o] - x[i], dy = y[i + o] - y[i], dz = z[i + o] - z[i];
        double ex = x1[i + o] - x1[i], ey = y1[i + o] - y1[i], ez = z1[i + o] - z1[i];
        double bound = (dx * ex + dy * ey + dz * ez) * inv_length[i] + error * rest[i];
        double excess = bound >= 0.0 ? ex * ex + ey * ey + ez * ez - bound * bound : 1.0;
        excess = k[i] != 0.0 && inv_length[i] != 0.0 ? excess : -1.0;
        worst = excess > worst ? excess : worst;
    }
    return worst;
}
LEVEL_LOOPS_AVX2_RETURNING(CORE_LOOPS_IMPLICIT, double, offset_model_excess,
                           (int o, int span, const double *restrict x, const double *restrict y,
                            const double *restrict z, const double *restrict x1, const double *restrict y1,
                            const double *restrict z1, const double *restrict inv_length, const double *restrict rest,
                            const double *restrict k, double error),
                           (o, span, x, y, z, x1, y1, z1, inv_length, rest, k, error))

/* Whether the springs' linear model held at the answer: for every link
 * taking part, | |d1| - (|d| + n . (d1 - d)) | = |d1| - n . d1 <= error
 * rest, d its vector where it was linearised (lin), d1 at the answer
 * (next): the model got no link's strain wrong by more than `error`. */
static bool linear_model_holds(const Implicit *im, double error)
{
    for (int o = 0; o < im->offsets; o++) {
        const Offset *f = &im->by_offset[o];
        if (offset_model_excess(f->offset, f->span, im->lin[0], im->lin[1], im->lin[2], im->next[0], im->next[1],
                                im->next[2], f->inv_length, f->rest, f->k, error) > 0.0)
            return false;
    }
    return true;
}

/* A[i][j] += value in the coarse matrix's lower band (i >= j). */
static inline void coarse_add(Coarse *co, int i, int j, double value)
{
    if (i < j) {
        int t = i;
        i = j, j = t;
    }
    co->factor[(size_t)i * (size_t)(co->band + 1) + (size_t)(i - j)] += value;
}

/* sign times a link's B = m m^T + beta I into the coarse block at squares (I, J), I >= J. */
static void coarse_add_block(Coarse *co, int I, int J, const double m[3], double beta, double sign)
{
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            int row = 3 * I + a, col = 3 * J + b;
            if (row >= col)
                coarse_add(co, row, col, sign * (m[a] * m[b] + (a == b ? beta : 0.0)));
        }
}

/* P^T A P for this linearisation, and its Cholesky factor in place. False
 * (the coarse level then stays out) if a pivot is not positive. */
static bool coarse_build(Implicit *im, const Cloth *c)
{
    Coarse *co = &im->coarse;
    const int n = im->count;
    const size_t width = (size_t)co->band + 1;
    memset(co->factor, 0, (size_t)co->dofs * width * sizeof(double));
    for (int i = 0; i < n; i++) {
        int col = i % c->cols, row = i / c->cols;
        co->square[i] = c->inv_mass[i] == 0.0f ? -1 : (row / co->side) * co->cols + col / co->side;
        if (co->square[i] >= 0)
            for (int k = 0; k < 3; k++)
                coarse_add(co, 3 * co->square[i] + k, 3 * co->square[i] + k, im->mass[i]);
    }
    /* a link between squares I and J: B at (I, I) and (J, J), -B at (I, J);
     * one within a square moves nothing there */
    for (int o = 0; o < im->offsets; o++) {
        const Offset *f = &im->by_offset[o];
        for (int i = 0; i < f->span; i++) {
            int I = co->square[i], J = co->square[i + f->offset];
            if (I == J)
                continue;
            double m[3] = {f->mx[i], f->my[i], f->mz[i]};
            if (I >= 0)
                coarse_add_block(co, I, I, m, f->beta[i], 1.0);
            if (J >= 0)
                coarse_add_block(co, J, J, m, f->beta[i], 1.0);
            if (I >= 0 && J >= 0)
                coarse_add_block(co, I > J ? I : J, I > J ? J : I, m, f->beta[i], -1.0);
        }
    }
    /* squares with no free particle: an identity (their residual is 0) */
    for (int d = 0; d < co->dofs; d++)
        if (co->factor[(size_t)d * width] == 0.0)
            co->factor[(size_t)d * width] = 1.0;
    /* Cholesky in the band: L[i][j] = (A[i][j] - sum over k < j of L[i][k] L[j][k]) / L[j][j] */
    for (int i = 0; i < co->dofs; i++) {
        int first = i - co->band > 0 ? i - co->band : 0;
        double *row_i = co->factor + (size_t)i * width;
        for (int j = first; j <= i; j++) {
            const double *row_j = co->factor + (size_t)j * width;
            double sum = row_i[i - j];
            for (int k = first > j - co->band ? first : j - co->band; k < j; k++)
                sum -= row_i[i - k] * row_j[j - k];
            if (j < i)
                row_i[i - j] = sum / row_j[0];
            else if (sum > 0.0)
                row_i[0] = sqrt(sum);
            else
                return false;
        }
    }
    return true;
}

/* z += P (P^T A P)^-1 P^T r, the coarse level's part of the
 * preconditioner; returns r . z. */
static double coarse_rz(Implicit *im)
{
    Coarse *co = &im->coarse;
    const size_t width = (size_t)co->band + 1;
    memset(co->rc, 0, (size_t)co->dofs * sizeof(double));
    for (int i = 0; i < im->count; i++)
        if (co->square[i] >= 0)
            for (int k = 0; k < 3; k++)
                co->rc[3 * co->square[i] + k] += im->r[k][i];
    for (int i = 0; i < co->dofs; i++) { /* L y = P^T r */
        const double *row = co->factor + (size_t)i * width;
        double sum = co->rc[i];
        for (int k = i - co->band > 0 ? i - co->band : 0; k < i; k++)
            sum -= row[i - k] * co->rc[k];
        co->rc[i] = sum / row[0];
    }
    for (int i = co->dofs - 1; i >= 0; i--) { /* L^T y' = y */
        double sum = co->rc[i];
        int last = i + co->band < co->dofs - 1 ? i + co->band : co->dofs - 1;
        for (int k = i + 1; k <= last; k++)
            sum -= co->factor[(size_t)k * width + (size_t)(k - i)] * co->rc[k];
        co->rc[i] = sum / co->factor[(size_t)i * width];
    }
    for (int i = 0; i < im->count; i++)
        if (co->square[i] >= 0)
            for (int k = 0; k < 3; k++)
                im->z[k][i] += co->rc[3 * co->square[i] + k];
    return dot(im->r[0], im->z[0], im->count) + dot(im->r[1], im->z[1], im->count) + dot(im->r[2], im->z[2], im->count);
}

/* Iterations conjugate gradients take on the blocks alone before the
 * coarse level joins in (COARSE_AFTER) for the rest of the linear solve.
 * The blocks' inverse is enough where each particle's mass holds it (at
 * the sandbox's step the curtain takes 4 iterations a substep), not where
 * stiff links tie the whole cloth into one: at dt = 0.1 s and spring_k 1e4
 * or 1e5 it took 1,000 to 4,000 iterations a step, the coarse level 50 to
 * 70 (its build, some 0.7 M multiplications, then pays). */
#define COARSE_AFTER 25

/* The preconditioner from r: z = the blocks' inverse times r (update, with
 * no step), and the coarse level's part; returns r . z. */
static double precondition(Implicit *im, double *r_norm2)
{
    for (int k = 0; k < 3; k++)
        memset(im->ap[k], 0, (size_t)im->count * sizeof(double));
    update(im, 0.0, r_norm2);
    return coarse_rz(im);
}

/* Conjugate gradients on the system build left, from x (in im->x): r = b
 * - A x, then steps until r . r <= goal2 or max_iterations of them, each
 * counted in *iterations. Returns r . r at the end. */
static double conjugate_gradients(Implicit *im, const Cloth *c, double goal2, int max_iterations, int *iterations)
{
    const int n = im->count;
    /* r = b - A x: an update by A x with no step along p = 0 */
    apply(im, im->x, im->ap);
    for (int k = 0; k < 3; k++)
        memset(im->p[k], 0, (size_t)n * sizeof(double));
    double r_norm2, rz = update(im, 1.0, &r_norm2);
    bool two_level = false;
    for (int k = 0; k < 3; k++)
        memcpy(im->p[k], im->z[k], (size_t)n * sizeof(double));
    for (int taken = 0; r_norm2 > goal2 && taken < max_iterations; taken++) {
        if (taken == COARSE_AFTER && !two_level) {
            /* start again from here with the coarse level: z, and p = z */
            im->coarse.ready = im->coarse.ready || coarse_build(im, c);
            if (im->coarse.ready) {
                two_level = true;
                rz = precondition(im, &r_norm2);
                for (int k = 0; k < 3; k++)
                    memcpy(im->p[k], im->z[k], (size_t)n * sizeof(double));
            }
        }
        double pap = apply(im, im->p, im->ap);
        if (!(pap > 0.0))
            break; /* p is 0 (converged to rounding) */
        double alpha = rz / pap, rz_next = update(im, alpha, &r_norm2);
        if (two_level)
            rz_next = coarse_rz(im);
        double beta = rz_next / rz;
        rz = rz_next;
        for (int k = 0; k < 3; k++)
            cg_direction(im->p[k], im->z[k], beta, n);
        ++*iterations;
    }
    return r_norm2;
}

static double norm2(double *const v[3], int n)
{
    return dot(v[0], v[0], n) + dot(v[1], v[1], n) + dot(v[2], v[2], n);
}

ImplicitResult implicit_solve(Implicit *im, const Cloth *c, const float *const f[3], const ImplicitLinks *links,
                              double h, double tolerance, int max_iterations, int linearisations)
{
    ImplicitResult result = {0, 0.0, 1, true};
    const int n = c->count;
    const float *x0[3] = {c->x, c->y, c->z}, *v0[3] = {c->vx, c->vy, c->vz};
    for (int k = 0; k < 3; k++) {
        widen(im->lin[k], x0[k], 1.0, n);
        widen(im->vel[k], v0[k], 1.0, n);
    }
    /* the first linearisation, Baraff and Witkin's: at x0, b = h (f0 + h K v0) */
    build(im, c, f, links, h, im->lin, im->vel);
    double b_norm2 = norm2(im->r, n);
    if (b_norm2 == 0.0) {
        implicit_forget(im);
        return result;
    }
    /* x from the last two substeps' dv, as if it changed at a steady rate
     * (on the curtain 4.2 iterations a substep where the last dv alone
     * takes 5.0) */
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < n; i++)
            im->x[k][i] = 2.0 * im->dv[k][i] - im->prev[k][i], im->prev[k][i] = im->dv[k][i];
    double r_norm2 = conjugate_gradients(im, c, tolerance * tolerance * b_norm2, max_iterations, &result.iterations);
    bool solved = r_norm2 <= tolerance * tolerance * b_norm2;
    /* Newton's steps while the springs' linear model got a link's strain
     * wrong by more than IMPLICIT_MODEL_ERROR: the springs linearised
     * again where the answer puts the particles, lin = x0 + h (v0 + dv)
     * (e = -dv: b - A dv is then backward Euler's own residual h f(x1, v1)
     * - M dv), and the solve goes on from dv */
    bool model_holds = linearisations == 1;
    while (!model_holds) {
        for (int k = 0; k < 3; k++)
            answer_at(im->next[k], im->e[k], x0[k], im->vel[k], im->x[k], h, n);
        model_holds = linear_model_holds(im, IMPLICIT_MODEL_ERROR);
        if (model_holds || result.linearisations == linearisations)
            break;
        for (int k = 0; k < 3; k++) {
            double *t = im->lin[k];
            im->lin[k] = im->next[k], im->next[k] = t;
        }
        build(im, c, f, links, h, im->lin, im->e);
        b_norm2 = norm2(im->r, n);
        r_norm2 = conjugate_gradients(im, c, tolerance * tolerance * b_norm2, max_iterations, &result.iterations);
        solved = r_norm2 <= tolerance * tolerance * b_norm2;
        result.linearisations++;
    }
    result.converged = solved && model_holds;
    for (int k = 0; k < 3; k++)
        memcpy(im->dv[k], im->x[k], (size_t)n * sizeof(double));
    result.residual = sqrt(r_norm2 / b_norm2);
    return result;
}
