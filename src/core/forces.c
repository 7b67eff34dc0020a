/* forces.c - what moves the cloth from outside and what its springs pull
 * with: KINEMATICS (the hands, the collider's path) and FORCES (gravity,
 * the wind and its gusts, the force-based integrators' springs).
 */
#include <math.h>
#include <string.h>

#include "level.h"
#include "rng.h"
#include "scene.h"
#include "solver_internal.h"
#include "springs.h"

#define WIND_DRAG SOLVER_WIND_DRAG

/* Turbulence: for each of x and z, SOLVER_TURBULENCE_WAVES travelling waves
 * across the cloth with seeded directions, wavelengths, frequencies and
 * phases. Wave w at time t adds a sin(theta(t) - kx u - ky v) at the
 * particle of column c and row r (u, v their rest places). The spatial
 * phase splits into a column's part and a row's, whose cosines and sines
 * are tabulated once; each substep gives each row its two factors
 * (wave_factors), and a particle then costs two multiply-adds a wave,
 * where a table a particle would hold 12 floats each, all read every
 * substep. */
void forces_setup_turbulence(Solver *s)
{
    const Cloth *c = s->cloth;
    const int waves = 2 * SOLVER_TURBULENCE_WAVES;
    uint64_t rng = s->params.seed * 0x9E3779B97F4A7C15ull + 0x7475726275ull;
    for (int w = 0; w < waves; w++) {
        double direction = 2.0 * CLOTHSIM_PI * rng_uniform(&rng);
        double wavelength = 0.6 + 1.4 * rng_uniform(&rng); /* m */
        double k = 2.0 * CLOTHSIM_PI / wavelength;
        s->wave_kx[w] = k * cos(direction);
        s->wave_ky[w] = k * sin(direction);
        s->wave_omega[w] = 1.0 + 5.0 * rng_uniform(&rng); /* rad/s: gusts of 1 to 6 s */
        s->wave_phase[w] = 2.0 * CLOTHSIM_PI * rng_uniform(&rng);
        /* equal shares whose squares add to 1: the gusts' rms is turbulence/sqrt(2) */
        s->wave_amplitude[w] = 1.0 / sqrt((double)SOLVER_TURBULENCE_WAVES);
    }
    double spacing = s->params.spacing;
    for (int w = 0; w < waves; w++) {
        for (int col = 0; col < c->cols; col++) {
            double phase = s->wave_kx[w] * (col * spacing);
            s->wave_col_cos[(size_t)w * (size_t)c->cols + (size_t)col] = (float)cos(phase);
            s->wave_col_sin[(size_t)w * (size_t)c->cols + (size_t)col] = (float)sin(phase);
        }
        for (int row = 0; row < c->rows; row++) {
            double phase = s->wave_ky[w] * (row * spacing);
            s->wave_row_cos[(size_t)w * (size_t)c->rows + (size_t)row] = cos(phase);
            s->wave_row_sin[(size_t)w * (size_t)c->rows + (size_t)row] = sin(phase);
        }
    }
}

/* ------------------------------------------------------------ kinematics */

/* The heap: the hand holding the centre walks down at pull_speed and lets
 * go just above the floor, once the cloth hanging from it has had a second
 * to stop swinging. */
static void lower_the_centre(Solver *s)
{
    Cloth *c = s->cloth;
    int centre = cloth_index(c, c->cols / 2, c->rows / 2);
    if (!c->pinned[centre] || centre == s->grabbed || s->time < 1.0)
        return;
    float h = (float)params_substep(&s->params);
    float lowest = (float)(s->params.floor_y + s->params.margin + s->params.thickness);
    c->py[centre] = c->y[centre], c->pry[centre] = c->ry[centre];
    c->y[centre] -= (float)s->params.pull_speed * h;
    if (c->y[centre] <= lowest) {
        c->y[centre] = lowest;
        cloth_pin(c, centre, false);
    }
}

void stage_kinematics(Solver *s, double t_end)
{
    scene_sphere_center(&s->params, t_end, s->sphere_center);
    if (s->params.scene == SCENE_HEAP && s->params.pull_speed > 0.0)
        lower_the_centre(s);
    if (s->params.scene == SCENE_TEAR && s->params.pull_speed > 0.0) {
        /* the hands holding the left and right edges walk apart */
        Cloth *c = s->cloth;
        float move = (float)(s->params.pull_speed * params_substep(&s->params));
        for (int i = 0; i < c->count; i++) {
            int col = i % c->cols;
            if (!c->pinned[i] || i == s->grabbed || (col != 0 && col != c->cols - 1))
                continue;
            c->px[i] = c->x[i], c->prx[i] = c->rx[i];
            c->x[i] += col == 0 ? -move : move;
        }
    }
    if (s->grabbed >= 0) {
        Cloth *c = s->cloth;
        int g = s->grabbed;
        float f = (float)(s->substep + 1) / (float)s->params.substeps;
        c->x[g] = s->grab_start[0] + (s->grab_target[0] - s->grab_start[0]) * f;
        c->y[g] = s->grab_start[1] + (s->grab_target[1] - s->grab_start[1]) * f;
        c->z[g] = s->grab_start[2] + (s->grab_target[2] - s->grab_start[2]) * f;
        if (s->params.dim == 2)
            c->z[g] = 0.0f;
    }
}

/* ------------------------------------------------------------ wind */

/* The gusts at time t, row by row: with S and C wave w's amplitude times
 * turbulence times sin and cos of its phase in time, and a, b the column's
 * and the row's spatial phase,
 *   S cos(a + b) - C sin(a + b) = P cos a - Q sin a,
 *   P = S cos b - C sin b,   Q = S sin b + C cos b,
 * P and Q a row's (wave_p, wave_q), worked out in double. */
static void wave_factors(Solver *s, double t)
{
    const int rows = s->cloth->rows;
    for (int w = 0; w < 2 * SOLVER_TURBULENCE_WAVES; w++) {
        double theta = s->wave_omega[w] * t + s->wave_phase[w];
        double scale = s->wave_amplitude[w] * s->params.turbulence;
        double sin_t = scale * sin(theta), cos_t = scale * cos(theta);
        for (int row = 0; row < rows; row++) {
            size_t at = (size_t)w * (size_t)rows + (size_t)row;
            double cb = s->wave_row_cos[at], sb = s->wave_row_sin[at];
            s->wave_p[at] = (float)(sin_t * cb - cos_t * sb);
            s->wave_q[at] = (float)(sin_t * sb + cos_t * cb);
        }
    }
}

void solver_wind_field(Solver *s, int from, int to)
{
    const int cols = s->cloth->cols, rows = s->cloth->rows;
    float wx = (float)s->params.wind_x, wz = (float)s->params.wind_z;
    for (int i = from; i < to; i++) {
        int row = i / cols, col = i % cols;
        float g[2] = {0.0f, 0.0f};
        for (int w = 0; w < 2 * SOLVER_TURBULENCE_WAVES; w++) {
            size_t r = (size_t)w * (size_t)rows + (size_t)row, c = (size_t)w * (size_t)cols + (size_t)col;
            g[w / SOLVER_TURBULENCE_WAVES] += s->wave_p[r] * s->wave_col_cos[c] - s->wave_q[r] * s->wave_col_sin[c];
        }
        s->wind_x_at[i] = wx + g[0];
        s->wind_z_at[i] = wz + g[1];
    }
}

/* Wind, cell by cell: the air moves at the
 * wind, the cloth at its own velocity, and a piece of cloth of area A and
 * unit normal n^ feels WIND_DRAG * A * (n^ . v_rel) n^, with v_rel the air's
 * velocity minus the piece's mean velocity. A cloth at rest feels the
 * classic f = WIND_DRAG * A (n^ . w) n^; a cloth moving with the air feels none, so a
 * free cloth in a breeze drifts up to the breeze's speed and no faster. The
 * wind is applied only where some is set (wind or turbulence): with none
 * the cloth moves in no air at all, as it always did.
 *
 * A whole cell takes its vector area from its diagonals, n = (br - tl) x
 * (tr - bl), |n| = 2 A, and gives a quarter of its force to each corner:
 * every particle then gets the share of the wind its lumped mass stands for
 * (a corner a quarter cell, an edge half, an interior particle a whole one),
 * and the grid's mirror symmetry holds. A cell with one triangle torn
 * pushes on the other only, a third to each of its corners; one with both
 * torn, or of no area, feels nothing. The triangles are cloth_create's: two
 * a cell, row by row (first tl, bl, br; second tl, br, tr). */
void solver_wind_cells(Solver *s, int from, int to)
{
    const Cloth *c = s->cloth;
    const int cells = c->cols - 1;
    for (int cell = from; cell < to; cell++) {
        int row = cell / cells, col = cell % cells;
        uint32_t tl = (uint32_t)(row * c->cols + col), tr = tl + 1, bl = tl + (uint32_t)c->cols, br = bl + 1;
        bool first = !c->triangle_torn[2 * cell], second = !c->triangle_torn[2 * cell + 1];
        /* the corners that take part, and two edges whose cross product is n */
        uint32_t corner[4] = {tl, bl, br, tr}, e1a = tl, e1b = br, e2a = bl, e2b = tr;
        int corners = 4;
        if (!second)
            corners = 3, e1b = bl, e2a = tl, e2b = br; /* tl, bl, br */
        else if (!first)
            corners = 3, corner[1] = tr, e1b = br, e2a = tl, e2b = tr; /* tl, tr, br */
        float fx = 0.0f, fy = 0.0f, fz = 0.0f;
        if (first || second) {
            float e1x = c->x[e1b] - c->x[e1a], e1y = c->y[e1b] - c->y[e1a], e1z = c->z[e1b] - c->z[e1a];
            float e2x = c->x[e2b] - c->x[e2a], e2y = c->y[e2b] - c->y[e2a], e2z = c->z[e2b] - c->z[e2a];
            float nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
            float length = sqrtf(nx * nx + ny * ny + nz * nz);
            if (length >= 1e-12f) {
                float ax = 0.0f, az = 0.0f, vx = 0.0f, vy = 0.0f, vz = 0.0f;
                for (int k = 0; k < corners; k++) {
                    uint32_t i = corner[k];
                    ax += s->wind_x_at[i], az += s->wind_z_at[i];
                    vx += c->vx[i], vy += c->vy[i], vz += c->vz[i];
                }
                float mean = 1.0f / (float)corners;
                float rx = (ax - vx) * mean, ry = -vy * mean, rz = (az - vz) * mean;
                /* WIND_DRAG * A (n^ . v_rel) n^ = WIND_DRAG / 2 (n . v_rel) n / |n|, shared */
                float scale = (WIND_DRAG * 0.5f * mean) * (nx * rx + ny * ry + nz * rz) / length;
                fx = nx * scale, fy = ny * scale, fz = nz * scale;
            }
        }
        s->wind_cell_x[cell] = fx, s->wind_cell_y[cell] = fy, s->wind_cell_z[cell] = fz;
    }
}

void solver_wind_to_particles(Solver *s, int from, int to)
{
    const Cloth *c = s->cloth;
    const int cells = c->cols - 1;
    for (int i = from; i < to; i++) {
        int row = i / c->cols, col = i % c->cols;
        /* the cells it is a corner of: up-left (its bottom right, in
         * both triangles), up (bottom left: the first), left (top
         * right: the second), its own (top left: both) */
        int cell[4] = {-1, -1, -1, -1};
        if (row > 0 && col > 0)
            cell[0] = (row - 1) * cells + col - 1;
        if (row > 0 && col < cells && !c->triangle_torn[2 * ((row - 1) * cells + col)])
            cell[1] = (row - 1) * cells + col;
        if (row < c->rows - 1 && col > 0 && !c->triangle_torn[2 * (row * cells + col - 1) + 1])
            cell[2] = row * cells + col - 1;
        if (row < c->rows - 1 && col < cells)
            cell[3] = row * cells + col;
        for (int k = 0; k < 4; k++)
            if (cell[k] >= 0) {
                s->fx[i] += s->wind_cell_x[cell[k]];
                s->fy[i] += s->wind_cell_y[cell[k]];
                s->fz[i] += s->wind_cell_z[cell[k]];
            }
    }
}

static void add_wind(Solver *s)
{
    solver_wind_cells(s, 0, (s->cloth->cols - 1) * (s->cloth->rows - 1));
    solver_wind_to_particles(s, 0, s->cloth->count);
}

/* ------------------------------------------------------------ springs */

/* A spring's arithmetic, link by link (add_springs): the pull on its first
 * particle (tension times the unit vector along it; the second particle
 * gets its opposite) into pull_x / y / z, and in pulls whether it pulls at
 * all (not torn, a stiffness, a length). k and dashpot are each link's
 * constant and dashpot coefficient (link_dashpots). Without branches, so
 * that it runs several links at a time: the same operations in every
 * lane. (Its square root goes several at a time because forces.c is built
 * without errno for it, Makefile: a sum of squares is never negative.) */
LEVEL_BODY static void spring_links_body(const uint32_t *restrict link_a, const uint32_t *restrict link_b,
                                         const uint8_t *restrict torn, const float *restrict rest,
                                         const float *restrict x, const float *restrict y, const float *restrict z,
                                         const float *restrict vx, const float *restrict vy, const float *restrict vz,
                                         const float *restrict k, const float *restrict dashpot, float *restrict pull_x,
                                         float *restrict pull_y, float *restrict pull_z, uint8_t *restrict pulls,
                                         int count)
{
    for (int l = 0; l < count; l++) {
        uint32_t a = link_a[l], b = link_b[l];
        float dx = x[b] - x[a], dy = y[b] - y[a], dz = z[b] - z[a];
        float length = sqrtf(dx * dx + dy * dy + dz * dz);
        float nx = dx / length, ny = dy / length, nz = dz / length;
        float closing = (vx[b] - vx[a]) * nx + (vy[b] - vy[a]) * ny + (vz[b] - vz[a]) * nz;
        float tension = k[l] * (length - rest[l]) + dashpot[l] * closing;
        pull_x[l] = tension * nx, pull_y[l] = tension * ny, pull_z[l] = tension * nz;
        pulls[l] = (uint8_t)((torn[l] == 0) & (k[l] > 0.0f) & !(length < 1e-12f));
    }
}
LEVEL_LOOPS(CORE_LOOPS_SPRING_LINKS, spring_links,
            (const uint32_t *restrict link_a, const uint32_t *restrict link_b, const uint8_t *restrict torn,
             const float *restrict rest, const float *restrict x, const float *restrict y, const float *restrict z,
             const float *restrict vx, const float *restrict vy, const float *restrict vz, const float *restrict k,
             const float *restrict dashpot, float *restrict pull_x, float *restrict pull_y, float *restrict pull_z,
             uint8_t *restrict pulls, int count),
            (link_a, link_b, torn, rest, x, y, z, vx, vy, vz, k, dashpot, pull_x, pull_y, pull_z, pulls, count))

/* Each link's spring constant and its dashpot's coefficient,
 * 2 spring_damping sqrt(k m_a m_b / (m_a + m_b)): they change only with
 * the settings and the masses (a build, a load), so they are worked out
 * again only then, not every substep. The same operations as ever, so the
 * same bits. Returns whether they were worked out again. */
static bool link_dashpots(Solver *s, const float spring[LINK_FAMILY_COUNT], float zeta)
{
    if (!s->dashpots_stale && memcmp(spring, s->dashpot_spring, sizeof s->dashpot_spring) == 0 &&
        memcmp(&zeta, &s->dashpot_zeta, sizeof zeta) == 0)
        return false;
    const Cloth *c = s->cloth;
    for (int l = 0; l < c->link_count; l++) {
        float k = spring[c->family[l]];
        uint32_t a = c->link_a[l], b = c->link_b[l];
        float reduced = c->mass[a] * c->mass[b] / (c->mass[a] + c->mass[b]);
        s->link_k[l] = k;
        s->link_dashpot[l] = 2.0f * zeta * sqrtf(k * reduced);
    }
    memcpy(s->dashpot_spring, spring, sizeof s->dashpot_spring);
    s->dashpot_zeta = zeta;
    s->dashpots_stale = false;
    s->dashpot_version++;
    return true;
}

static void spring_link_forces(Solver *s)
{
    const Cloth *c = s->cloth;
    spring_links(c->link_a, c->link_b, c->torn, c->rest_length, c->x, c->y, c->z, c->vx, c->vy, c->vz, s->link_k,
                 s->link_dashpot, s->pull_x, s->pull_y, s->pull_z, s->pulls, c->link_count);
}

/* Hooke springs with a dashpot along each link. The dashpot's coefficient
 * is spring_damping times the critical value for the link's two masses.
 * Each link's pull is worked out first, several links at a time
 * (spring_link_forces), then added to its two particles link after link
 * in the listed order, as one loop doing both did: the same bits. On the
 * fast path the same sums are made direction by direction (springs.h),
 * which the plain loop here stays the reference for. */
/* Each link's spring constant and dashpot coefficient brought up to the
 * settings, and what keeps a copy of them (springs.h) told when they
 * changed: add_springs and implicit's solve both read them. */
void forces_refresh_link_constants(Solver *s)
{
    float spring[LINK_FAMILY_COUNT];
    for (int f = 0; f < LINK_FAMILY_COUNT; f++)
        spring[f] = solver_family_spring(s, f);
    if (link_dashpots(s, spring, (float)s->params.spring_damping))
        springs_stale(s->springs);
}

static void add_springs(Solver *s)
{
    Cloth *c = s->cloth;
    forces_refresh_link_constants(s);
    if (fast_path(s) && springs_add(s->springs, c, s->link_k, s->link_dashpot, s->fx, s->fy, s->fz))
        return;
    spring_link_forces(s);
    /* in locals: the compiler cannot tell the forces from the arrays the
     * loop reads, and would fetch every pointer again after each store */
    const float *restrict pull_x = s->pull_x, *restrict pull_y = s->pull_y, *restrict pull_z = s->pull_z;
    const uint8_t *restrict pulls = s->pulls;
    const uint32_t *restrict link_a = c->link_a, *restrict link_b = c->link_b;
    float *restrict fx = s->fx, *restrict fy = s->fy, *restrict fz = s->fz;
    for (int l = 0; l < c->link_count; l++) {
        if (!pulls[l])
            continue;
        uint32_t a = link_a[l], b = link_b[l];
        fx[a] += pull_x[l], fy[a] += pull_y[l], fz[a] += pull_z[l];
        fx[b] -= pull_x[l], fy[b] -= pull_y[l], fz[b] -= pull_z[l];
    }
}

void stage_forces(Solver *s, double t)
{
    Cloth *c = s->cloth;
    float g = (float)s->params.gravity;
    bool windy =
        (s->params.wind_x != 0.0 || s->params.wind_z != 0.0 || s->params.turbulence != 0.0) && s->params.dim == 3;
    if (windy)
        wave_factors(s, t);
    if (!fast_path(s) || !s->fast->forces(s->relax_fast, s, g, windy)) {
        for (int i = 0; i < c->count; i++) {
            s->fx[i] = 0.0f;
            s->fy[i] = -c->mass[i] * g;
            s->fz[i] = 0.0f;
        }
        if (windy) {
            solver_wind_field(s, 0, c->count);
            add_wind(s);
        }
    }
    /* implicit: its solve adds the springs (stage_solve) */
    if (!solver_is_position_based(s->params.integrator) && s->params.integrator != INTEGRATOR_IMPLICIT)
        add_springs(s);
    if (s->params.dim == 2)
        memset(s->fz, 0, (size_t)c->count * sizeof(float));
}
