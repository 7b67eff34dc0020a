/* colour.h - the colored order (order=colored): which link a relaxation
 * pass visits when.
 *
 * The grid's links are split into COLOUR_COUNT colours in which no two
 * links share a particle: horizontal structural links by the parity of
 * their column, vertical ones and both diagonals by the parity of their
 * row, bend links (which skip a particle) by columns or rows 0,1 | 2,3
 * mod 4. The rows are cut into bands of COLOUR_BAND_ROWS rows on a cloth
 * of COLOUR_BANDED_LINKS links or more (a smaller one is one band), and a
 * link belongs to the band of its top particle. A pass visits the even
 * bands, then the odd ones, and inside a band its colours in turn: a group
 * (one colour of one band) shares no particle, nor do two bands of the
 * same parity (a band's links reach two rows below it at most), so the
 * fast path (src/fast/) can solve a group's links at once and such bands
 * on several threads, with the bits of this order link by link, which the
 * plain loop (relax.c, project_links) walks.
 */
#ifndef CLOTHSIM_COLOUR_H
#define CLOTHSIM_COLOUR_H

#include <stdint.h>

#include "cloth.h"

/* Structural horizontal (2), vertical (2), shear down-right (2), down-left
 * (2), bend horizontal (2), vertical (2). */
#define COLOUR_COUNT 12
/* Rows of a band on a cloth large enough for threads: 8 rather than 4
 * halves the bands to hand out and wait for, with a band's rows (10 x 200
 * particles, 32 KB) still in the first-level cache (src/fast/README.md). */
#define COLOUR_BAND_ROWS 8
/* From this many links (a grid of about 75 x 75) the rows are in bands; a
 * smaller cloth is one band (and its passes take one thread). */
#define COLOUR_BANDED_LINKS 32768

/* Rows of a band of cloth: COLOUR_BAND_ROWS, or all its rows. */
int colour_band_rows(const Cloth *cloth);

/* The links of colour `colour` (0 .. COLOUR_COUNT - 1) whose top particle
 * is in row `row`, in the order cloth_create lists them, into run (room
 * for cols + 1); returns how many. */
int colour_row(const Cloth *cloth, int colour, int row, uint32_t *run);

/* Every link index once, in the colored order, into order (link_count
 * entries). False where the cloth's links are not its grid's (no cloth
 * cloth_create builds). */
bool colour_order(const Cloth *cloth, uint32_t *order);

#endif
