/* relax_colour.c - the colored order's schedule: the grid's links in
 * RELAX_FAST_COLOURS colours (no two links of a colour share a particle)
 * and its rows in bands (two bands of a phase share none), cut into units
 * (a colour of a band) and those into blocks of eight links that lie at
 * fixed strides in the particles, which the kernels load as vectors.
 * relax_fast.c opens with why; relax_schedule.c is the sequential order's
 * schedule, beside this one. Runs once, at relax_fast_create. The order
 * itself (which link is in which colour and band) is core/colour.c's.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/colour.h"
#include "relax_fast_internal.h"

/* Whether the 8 links run[s .. s+8) fit one block of colour col; fills it. */
static bool make_block(const Cloth *cloth, const Colour *col, const uint32_t *run, int s, int skip, Block *out)
{
    uint32_t first = run[s];
    int a0 = (int)cloth->link_a[first], b0 = (int)cloth->link_b[first];
    for (int j = 0; j < LANES; j++) {
        uint32_t l = run[s + j];
        if (l != first + (uint32_t)link_offset(col->links, j))
            return false;
        int pa = a0 + particle_offset(col->particles, j);
        int pb = col->particles == ROWS ? b0 + j : col->particles == PAIRS ? pa + 1 : pa + 2;
        if ((int)cloth->link_a[l] != pa || (int)cloth->link_b[l] != pb)
            return false;
    }
    /* every load stays inside the arrays */
    int link_span = col->links == LINKS_NEXT ? LANES : 2 * LANES;
    int particle_span = col->particles == ROWS ? LANES : 2 * LANES;
    if ((int)first + link_span > cloth->link_count || a0 + particle_span > cloth->count ||
        (col->particles == ROWS && b0 + LANES > cloth->count))
        return false;
    *out = (Block){.a = a0, .b = b0, .link = (int32_t)first, .skip = skip};
    return true;
}

/* The blocks of a unit while it is being built, by run (see Unit). */
typedef struct UnitBlocks {
    Block *single, *overlap;
    int singles, overlaps;
} UnitBlocks;

/* One row of a colour, m links in their natural order: vectors of 8 into
 * blocks, two by two into f->blocks and an odd one out into the singles,
 * and the last one overlapping the one before, with the overlap masked
 * off, into the overlaps (if it fits); what no vector can take goes to the
 * tails. */
static void add_run(RelaxFast *f, const Cloth *cloth, const Colour *col, const uint32_t *run, int m, UnitBlocks *ub)
{
    int done = 0, made = 0;
    if (m >= LANES) {
        for (int s = 0; s + LANES <= m; s += LANES)
            if (make_block(cloth, col, run, s, 0, &f->blocks[f->block_count]))
                f->block_count++, made++, done = s + LANES;
            else
                break;
        if (made % 2) /* the odd one out */
            ub->single[ub->singles++] = f->blocks[--f->block_count];
        int s = m - LANES;
        /* QUADS blocks start on an even ordinal, where a pair of links starts */
        if (done == m - m % LANES && done < m && (col->particles != QUADS || s % 2 == 0) &&
            make_block(cloth, col, run, s, done - s, &ub->overlap[ub->overlaps]))
            ub->overlaps++, done = m;
    }
    for (int j = done; j < m; j++)
        f->tails[f->tail_count++] = run[j];
}

static const ParticleLayout colour_particles[6] = {PAIRS, ROWS, ROWS, ROWS, QUADS, ROWS};
static const LinkLayout colour_links[6] = {LINKS_PAIRS, LINKS_NEXT, LINKS_EVEN, LINKS_EVEN, LINKS_QUADS, LINKS_NEXT};
static const int colour_family[6] = {LINK_STRUCTURAL, LINK_STRUCTURAL, LINK_SHEAR, LINK_SHEAR, LINK_BEND, LINK_BEND};

/* The invariants the colored order's passes rely on (relax_fast.h): every
 * link in one unit; no two links of a unit share a particle (a unit runs
 * in any order, or as vectors); two bands of a phase share no particle
 * (they run on different threads at once). Asserts; nothing in a build
 * with NDEBUG. */
static void check_colouring(const RelaxFast *f, const Cloth *cloth)
{
#ifndef NDEBUG
    int *unit_of = malloc((size_t)cloth->count * sizeof *unit_of);
    int *band_of = malloc((size_t)cloth->count * 2 * sizeof *band_of);
    uint8_t *seen = calloc((size_t)(cloth->link_count > 0 ? cloth->link_count : 1), 1);
    if (!unit_of || !band_of || !seen) { /* no memory to check with: nothing is wrong */
        free(unit_of), free(band_of), free(seen);
        return;
    }
    for (int i = 0; i < cloth->count; i++)
        unit_of[i] = -1, band_of[2 * i] = band_of[2 * i + 1] = -1;
    for (int u = 0; u < f->unit_count; u++) {
        int band = f->units[u].band, phase = band % 2;
        assert(f->group_start[u] <= f->group_start[u + 1]);
        for (int n = f->group_start[u]; n < f->group_start[u + 1]; n++) {
            uint32_t l = f->order[n];
            assert(l < (uint32_t)cloth->link_count && !seen[l]);
            seen[l] = 1;
            const uint32_t ends[2] = {cloth->link_a[l], cloth->link_b[l]};
            for (int e = 0; e < 2; e++) {
                assert(unit_of[ends[e]] != u); /* two links of a unit on one particle */
                unit_of[ends[e]] = u;
                int *other = &band_of[2 * ends[e] + phase];
                assert(*other < 0 || *other == band); /* two bands of a phase on one particle */
                *other = band;
            }
        }
    }
    assert(f->group_start[f->unit_count] == cloth->link_count);
    free(unit_of), free(band_of), free(seen);
#else
    (void)f, (void)cloth;
#endif
}

bool relax_colour_build(RelaxFast *f, const Cloth *cloth)
{
    uint32_t *run = malloc((size_t)(cloth->cols + 1) * sizeof *run);
    UnitBlocks ub = {.single = malloc((size_t)f->band_rows * sizeof *ub.single),
                     .overlap = malloc((size_t)f->band_rows * sizeof *ub.overlap)};
    bool ok = run && ub.single && ub.overlap;
    for (int c = 0; c < RELAX_FAST_COLOURS; c++) {
        Colour *col = &f->colour[c];
        col->family = colour_family[c / 2];
        col->particles = colour_particles[c / 2];
        col->links = colour_links[c / 2];
    }
    int n = 0, bands = (cloth->rows + f->band_rows - 1) / f->band_rows;
    for (int phase = 0; phase < 2 && ok; phase++) {
        f->phase_unit_start[phase] = f->unit_count;
        f->phase_bands[phase] = 0;
        for (int band = phase; band < bands; band += 2) {
            f->phase_bands[phase]++;
            for (int c = 0; c < RELAX_FAST_COLOURS; c++) {
                Unit *u = &f->units[f->unit_count];
                f->group_start[f->unit_count++] = n;
                *u = (Unit){.colour = c, .band = band, .block_begin = f->block_count, .tail_begin = f->tail_count};
                ub.singles = ub.overlaps = 0;
                for (int r = band * f->band_rows; r < (band + 1) * f->band_rows && r < cloth->rows; r++) {
                    int m = colour_row(cloth, c, r, run);
                    memcpy(f->order + n, run, (size_t)m * sizeof *run);
                    n += m;
                    add_run(f, cloth, &f->colour[c], run, m, &ub);
                }
                u->single_begin = f->block_count;
                memcpy(f->blocks + f->block_count, ub.single, (size_t)ub.singles * sizeof *ub.single);
                f->block_count += ub.singles;
                u->overlap_begin = f->block_count;
                memcpy(f->blocks + f->block_count, ub.overlap, (size_t)ub.overlaps * sizeof *ub.overlap);
                f->block_count += ub.overlaps;
                u->block_end = f->block_count;
                u->tail_end = f->tail_count;
            }
        }
    }
    f->group_start[f->unit_count] = n;
    free(run), free(ub.single), free(ub.overlap);
    if (!ok || n != cloth->link_count)
        return false;
    check_colouring(f, cloth);
    return true;
}
