/* cloth.c - allocation of the particle and link arrays, lumped masses. */
#include "cloth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int count_links(int cols, int rows)
{
    int structural = (cols - 1) * rows + cols * (rows - 1);
    int shear = 2 * (cols - 1) * (rows - 1);
    int bend = (cols > 2 ? (cols - 2) * rows : 0) + (rows > 2 ? cols * (rows - 2) : 0);
    return structural + shear + bend;
}

static void add_link(Cloth *cloth, int a, int b, LinkFamily family)
{
    int l = cloth->link_count++;
    cloth->link_a[l] = (uint32_t)a;
    cloth->link_b[l] = (uint32_t)b;
    cloth->family[l] = (uint8_t)family;
}

void *cloth_zeroed(size_t bytes)
{
    bytes = bytes > 0 ? (bytes + 63) / 64 * 64 : 64;
    void *out = aligned_alloc(64, bytes);
    if (out)
        memset(out, 0, bytes);
    return out;
}

Cloth *cloth_create(int cols, int rows)
{
    if (cols < 1 || rows < 1 || cols > CLOTH_MAX_SIDE || rows > CLOTH_MAX_SIDE ||
        (long)cols * rows > CLOTH_MAX_PARTICLES)
        return NULL;
    Cloth *cloth = calloc(1, sizeof *cloth);
    if (!cloth)
        return NULL;
    int n = cols * rows;
    int links = count_links(cols, rows);
    int triangles = 2 * (cols - 1) * (rows - 1);
    cloth->cols = cols;
    cloth->rows = rows;
    cloth->count = n;
    float **floats[] = {&cloth->x,  &cloth->y,  &cloth->z,   &cloth->px,  &cloth->py,  &cloth->pz,   &cloth->vx,
                        &cloth->vy, &cloth->vz, &cloth->rvx, &cloth->rvy, &cloth->rvz, &cloth->mass, &cloth->inv_mass};
    double **doubles[] = {&cloth->rx, &cloth->ry, &cloth->rz, &cloth->prx, &cloth->pry, &cloth->prz};
    bool ok = true;
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++)
        ok &= (*floats[i] = cloth_zeroed((size_t)n * sizeof(float))) != NULL;
    for (size_t i = 0; i < sizeof doubles / sizeof doubles[0]; i++)
        ok &= (*doubles[i] = calloc((size_t)n, sizeof(double))) != NULL;
    ok &= (cloth->pinned = calloc((size_t)n, 1)) != NULL;
    size_t link_slots = links > 0 ? (size_t)links : 1;
    ok &= (cloth->link_a = calloc(link_slots, sizeof(uint32_t))) != NULL;
    ok &= (cloth->link_b = calloc(link_slots, sizeof(uint32_t))) != NULL;
    ok &= (cloth->rest_length = calloc(link_slots, sizeof(float))) != NULL;
    ok &= (cloth->family = calloc(link_slots, 1)) != NULL;
    ok &= (cloth->torn = calloc(link_slots, 1)) != NULL;
    ok &= (cloth->over_limit = calloc(link_slots, sizeof(uint16_t))) != NULL;
    ok &= (cloth->triangle = calloc(triangles > 0 ? (size_t)triangles : 1, sizeof *cloth->triangle)) != NULL;
    ok &= (cloth->triangle_torn = calloc(triangles > 0 ? (size_t)triangles : 1, 1)) != NULL;
    if (!ok) {
        cloth_destroy(cloth);
        return NULL;
    }

    /* Families in blocks, structural first: a reader of the link array sees
     * the threads, then the diagonals, then the bend links. */
    for (int r = 0; r < rows; r++)
        for (int c = 0; c + 1 < cols; c++)
            add_link(cloth, r * cols + c, r * cols + c + 1, LINK_STRUCTURAL);
    for (int r = 0; r + 1 < rows; r++)
        for (int c = 0; c < cols; c++)
            add_link(cloth, r * cols + c, (r + 1) * cols + c, LINK_STRUCTURAL);
    for (int r = 0; r + 1 < rows; r++)
        for (int c = 0; c + 1 < cols; c++) {
            add_link(cloth, r * cols + c, (r + 1) * cols + c + 1, LINK_SHEAR);
            add_link(cloth, r * cols + c + 1, (r + 1) * cols + c, LINK_SHEAR);
        }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c + 2 < cols; c++)
            add_link(cloth, r * cols + c, r * cols + c + 2, LINK_BEND);
    for (int r = 0; r + 2 < rows; r++)
        for (int c = 0; c < cols; c++)
            add_link(cloth, r * cols + c, (r + 2) * cols + c, LINK_BEND);

    /* Two triangles per cell, all split along the same diagonal (top left
     * to bottom right), for drawing and for tearing. The wind does not push
     * triangle by triangle: a third of each to its corners would give the
     * corners on the diagonal 4/3 of their share and the other two 2/3; it
     * pushes cell by cell, a quarter to each corner (forces.c, add_wind).
     * Row 0 is the top, so the winding faces +z for a cloth in the xy
     * plane. */
    int t = 0;
    for (int r = 0; r + 1 < rows; r++)
        for (int c = 0; c + 1 < cols; c++) {
            uint32_t tl = (uint32_t)(r * cols + c), tr = tl + 1;
            uint32_t bl = (uint32_t)((r + 1) * cols + c), br = bl + 1;
            cloth->triangle[t][0] = tl, cloth->triangle[t][1] = bl, cloth->triangle[t][2] = br, t++;
            cloth->triangle[t][0] = tl, cloth->triangle[t][1] = br, cloth->triangle[t][2] = tr, t++;
        }
    cloth->triangle_count = t;
    return cloth;
}

void cloth_destroy(Cloth *cloth)
{
    if (!cloth)
        return;
    free(cloth->x), free(cloth->y), free(cloth->z);
    free(cloth->px), free(cloth->py), free(cloth->pz);
    free(cloth->vx), free(cloth->vy), free(cloth->vz);
    free(cloth->rx), free(cloth->ry), free(cloth->rz);
    free(cloth->prx), free(cloth->pry), free(cloth->prz);
    free(cloth->rvx), free(cloth->rvy), free(cloth->rvz);
    free(cloth->mass), free(cloth->inv_mass), free(cloth->pinned);
    free(cloth->link_a), free(cloth->link_b), free(cloth->rest_length);
    free(cloth->family), free(cloth->torn), free(cloth->over_limit);
    free(cloth->triangle), free(cloth->triangle_torn);
    free(cloth);
}

void cloth_copy(Cloth *dst, const Cloth *src)
{
    size_t n = (size_t)src->count, l = (size_t)src->link_count;
    memcpy(dst->x, src->x, n * sizeof(float));
    memcpy(dst->y, src->y, n * sizeof(float));
    memcpy(dst->z, src->z, n * sizeof(float));
    memcpy(dst->px, src->px, n * sizeof(float));
    memcpy(dst->py, src->py, n * sizeof(float));
    memcpy(dst->pz, src->pz, n * sizeof(float));
    memcpy(dst->vx, src->vx, n * sizeof(float));
    memcpy(dst->vy, src->vy, n * sizeof(float));
    memcpy(dst->vz, src->vz, n * sizeof(float));
    const double *from[] = {src->rx, src->ry, src->rz, src->prx, src->pry, src->prz};
    double *to[] = {dst->rx, dst->ry, dst->rz, dst->prx, dst->pry, dst->prz};
    for (int k = 0; k < 6; k++)
        memcpy(to[k], from[k], n * sizeof(double));
    memcpy(dst->rvx, src->rvx, n * sizeof(float));
    memcpy(dst->rvy, src->rvy, n * sizeof(float));
    memcpy(dst->rvz, src->rvz, n * sizeof(float));
    memcpy(dst->mass, src->mass, n * sizeof(float));
    memcpy(dst->inv_mass, src->inv_mass, n * sizeof(float));
    memcpy(dst->pinned, src->pinned, n);
    memcpy(dst->rest_length, src->rest_length, l * sizeof(float));
    memcpy(dst->torn, src->torn, l);
    dst->torn_generation++;
    memcpy(dst->over_limit, src->over_limit, l * sizeof(uint16_t));
    memcpy(dst->triangle_torn, src->triangle_torn, (size_t)src->triangle_count);
}

void cloth_set_lumped_mass(Cloth *cloth, float density, float spacing)
{
    float cell = density * spacing * spacing;
    for (int r = 0; r < cloth->rows; r++)
        for (int c = 0; c < cloth->cols; c++) {
            /* the share of a cell each direction contributes: half at a border */
            float share_x = (cloth->cols == 1 || c == 0 || c == cloth->cols - 1) ? 0.5f : 1.0f;
            float share_y = (cloth->rows == 1 || r == 0 || r == cloth->rows - 1) ? 0.5f : 1.0f;
            if (cloth->rows == 1)
                share_y = 1.0f; /* a rope: a ribbon one spacing wide */
            if (cloth->cols == 1)
                share_x = 1.0f;
            int i = cloth_index(cloth, c, r);
            cloth->mass[i] = cell * share_x * share_y;
            cloth->inv_mass[i] = cloth->pinned[i] ? 0.0f : 1.0f / cloth->mass[i];
        }
}

void cloth_set_rest_from_positions(Cloth *cloth)
{
    for (int l = 0; l < cloth->link_count; l++)
        cloth->rest_length[l] = cloth_link_length(cloth, l);
}

void cloth_pin(Cloth *cloth, int i, bool pinned)
{
    cloth->pinned[i] = pinned;
    cloth->inv_mass[i] = pinned ? 0.0f : 1.0f / cloth->mass[i];
    cloth->vx[i] = cloth->vy[i] = cloth->vz[i] = 0.0f;
    cloth->rvx[i] = cloth->rvy[i] = cloth->rvz[i] = 0.0f;
    cloth->px[i] = cloth->x[i];
    cloth->py[i] = cloth->y[i];
    cloth->pz[i] = cloth->z[i];
    cloth->prx[i] = cloth->rx[i], cloth->pry[i] = cloth->ry[i], cloth->prz[i] = cloth->rz[i];
}

float cloth_link_length(const Cloth *cloth, int l)
{
    uint32_t a = cloth->link_a[l], b = cloth->link_b[l];
    float dx = cloth->x[b] - cloth->x[a], dy = cloth->y[b] - cloth->y[a], dz = cloth->z[b] - cloth->z[a];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

float cloth_link_strain(const Cloth *cloth, int l)
{
    return cloth_link_length(cloth, l) / cloth->rest_length[l] - 1.0f;
}

/* The index arithmetic mirrors the loops of cloth_create. */
int cloth_link_right(const Cloth *c, int col, int row)
{
    return row * (c->cols - 1) + col;
}

int cloth_link_below(const Cloth *c, int col, int row)
{
    return c->rows * (c->cols - 1) + row * c->cols + col;
}

int cloth_link_shear(const Cloth *c, int col, int row, int which)
{
    int base = c->rows * (c->cols - 1) + (c->rows - 1) * c->cols;
    return base + 2 * (row * (c->cols - 1) + col) + which;
}

int cloth_link_bend_right(const Cloth *c, int col, int row)
{
    int base = c->rows * (c->cols - 1) + (c->rows - 1) * c->cols + 2 * (c->rows - 1) * (c->cols - 1);
    return base + row * (c->cols - 2) + col;
}

int cloth_link_bend_below(const Cloth *c, int col, int row)
{
    int base = c->rows * (c->cols - 1) + (c->rows - 1) * c->cols + 2 * (c->rows - 1) * (c->cols - 1);
    return base + (c->cols > 2 ? c->rows * (c->cols - 2) : 0) + row * c->cols + col;
}

static void tear_triangles_of_cell(Cloth *c, int col, int row)
{
    if (col < 0 || row < 0 || col >= c->cols - 1 || row >= c->rows - 1)
        return;
    int t = 2 * (row * (c->cols - 1) + col);
    int diagonal = cloth_link_shear(c, col, row, 0);
    /* triangle t: top-left, bottom-left, bottom-right; t + 1: top-left,
     * bottom-right, top-right */
    if (c->torn[cloth_link_below(c, col, row)] || c->torn[cloth_link_right(c, col, row + 1)] || c->torn[diagonal])
        c->triangle_torn[t] = 1;
    if (c->torn[diagonal] || c->torn[cloth_link_below(c, col + 1, row)] || c->torn[cloth_link_right(c, col, row)])
        c->triangle_torn[t + 1] = 1;
}

bool cloth_tear_link(Cloth *c, int l)
{
    if (c->torn[l])
        return false;
    c->torn[l] = 1;
    c->torn_generation++;
    if (c->family[l] == LINK_BEND)
        return true;
    int a = (int)c->link_a[l], b = (int)c->link_b[l];
    int ca = a % c->cols, ra = a / c->cols, cb = b % c->cols, rb = b / c->cols;
    if (c->family[l] == LINK_STRUCTURAL) {
        if (ra == rb) { /* horizontal: the bend links over it, the cells above and below */
            for (int start = ca - 1; start <= ca; start++)
                if (start >= 0 && start + 2 < c->cols)
                    c->torn[cloth_link_bend_right(c, start, ra)] = 1;
            tear_triangles_of_cell(c, ca, ra - 1);
            tear_triangles_of_cell(c, ca, ra);
        } else { /* vertical */
            for (int start = ra - 1; start <= ra; start++)
                if (start >= 0 && start + 2 < c->rows)
                    c->torn[cloth_link_bend_below(c, ca, start)] = 1;
            tear_triangles_of_cell(c, ca - 1, ra);
            tear_triangles_of_cell(c, ca, ra);
        }
    } else {
        tear_triangles_of_cell(c, ca < cb ? ca : cb, ra < rb ? ra : rb);
    }
    return true;
}
