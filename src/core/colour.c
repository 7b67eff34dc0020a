/* colour.c - the colored order (colour.h). */
#include "colour.h"

#include <stdlib.h>
#include <string.h>

int colour_band_rows(const Cloth *cloth)
{
    return cloth->link_count < COLOUR_BANDED_LINKS ? cloth->rows : COLOUR_BAND_ROWS;
}

int colour_row(const Cloth *cloth, int c, int r, uint32_t *run)
{
    int cols = cloth->cols, rows = cloth->rows, m = 0;
    int parity = c % 2;
    switch (c / 2) {
    case 0: /* structural horizontal, columns of one parity */
        for (int col = parity; col + 1 < cols; col += 2)
            run[m++] = (uint32_t)cloth_link_right(cloth, col, r);
        break;
    case 1: /* structural vertical, rows of one parity */
        if (r % 2 == parity && r + 1 < rows)
            for (int col = 0; col < cols; col++)
                run[m++] = (uint32_t)cloth_link_below(cloth, col, r);
        break;
    case 2: /* shear, top-left to bottom-right */
    case 3: /* shear, top-right to bottom-left */
        if (r % 2 == parity && r + 1 < rows)
            for (int col = 0; col + 1 < cols; col++)
                run[m++] = (uint32_t)cloth_link_shear(cloth, col, r, c / 2 - 2);
        break;
    case 4: /* bend horizontal, columns 0,1 or 2,3 mod 4 */
        for (int col = 2 * parity; col + 2 < cols; col += (col % 2) ? 3 : 1)
            run[m++] = (uint32_t)cloth_link_bend_right(cloth, col, r);
        break;
    case 5: /* bend vertical, rows 0,1 or 2,3 mod 4 */
        if ((r % 4) / 2 == parity && r + 2 < rows)
            for (int col = 0; col < cols; col++)
                run[m++] = (uint32_t)cloth_link_bend_below(cloth, col, r);
        break;
    }
    return m;
}

bool colour_order(const Cloth *cloth, uint32_t *order)
{
    uint32_t *run = malloc((size_t)(cloth->cols + 1) * sizeof *run);
    if (!run)
        return false;
    int n = 0, band_rows = colour_band_rows(cloth), bands = (cloth->rows + band_rows - 1) / band_rows;
    for (int phase = 0; phase < 2; phase++)
        for (int band = phase; band < bands; band += 2)
            for (int c = 0; c < COLOUR_COUNT; c++)
                for (int r = band * band_rows; r < (band + 1) * band_rows && r < cloth->rows; r++) {
                    int m = colour_row(cloth, c, r, run);
                    if (n + m > cloth->link_count)
                        return free(run), false;
                    memcpy(order + n, run, (size_t)m * sizeof *run);
                    n += m;
                }
    free(run);
    return n == cloth->link_count;
}
